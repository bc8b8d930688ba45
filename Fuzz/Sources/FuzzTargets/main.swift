import Foundation
import RouteRankerCore
import RouteRankerModels

// One executable, one libFuzzer target per parser of untrusted input, chosen by FUZZ_TARGET.
// libFuzzer's own `main` is not used (SwiftPM renames an executable's entry point), so this file
// hands its callback to `LLVMFuzzerRunDriver` (DESIGN.md, "Tooling checked on this machine").
// Every target checks more than "no crash" where it can: a stream split anywhere parses the same,
// what the strict JSON check accepts Foundation reads, a formatted timestamp reads back.

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// What one result of a parser was, for comparing two ways of reading the same bytes.
func outcome<T: Equatable>(_ body: () throws -> T) -> Result<T, FormatError>? {
    do { return .success(try body()) } catch let error as FormatError { return .failure(error) } catch { return nil }
}

/// A stream read whole and read split at a position taken from the input's first byte.
func splitInvariance(_ bytes: [UInt8], _ format: PointStreamReader.Format) {
    guard let first = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    let at = body.isEmpty ? 0 : Int(first) % (body.count + 1)
    let whole = outcome { try PointStreamReader.readAll(body, format: format) }
    let split = outcome { () -> [TrackPoint] in
        var reader = PointStreamReader(format)
        return try reader.feed(body[..<at]) + reader.feed(body[at...]) + reader.finish()
    }
    switch (whole, split) {
    case (.success(let a)?, .success(let b)?): precondition(a == b, "a split changed the points")
    case (.success?, _), (_, .success?): preconditionFailure("a split changed whether the stream parses")
    default: break
    }
    if case .success(let points)? = whole {
        for point in points {
            precondition(point.lat.isFinite && abs(point.lat) <= 90 && abs(point.lon) <= 180 && point.t > 0)
        }
    }
}

let targets: [String: @Sendable ([UInt8]) -> Void] = [
    "json-body": { bytes in
        // The server's JSON route body: the strict check, then Foundation's decoder.
        guard (try? StrictJSON.validate(bytes)) != nil else { return }
        // What the strict check accepts Foundation reads — except numbers beyond a Double's range
        // (valid JSON that Foundation refuses; the server then answers 400 naming the key).
        let hasExponent = bytes.contains(UInt8(ascii: "e")) || bytes.contains(UInt8(ascii: "E"))
        let digits = bytes.split { !(48...57).contains($0) }.map(\.count).max() ?? 0
        if !hasExponent && digits < 300 {
            precondition(
                (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil,
                "the strict check accepted what Foundation cannot read")
        }
        let decoded = try? JSONDecoder().decode(RouteJSONBody.self, from: Data(bytes))
        // The server's scanner, where it reads a body at all, reads what the decoder reads.
        if let scanned = RouteJSONBody.scanned(bytes) {
            precondition(scanned == decoded, "the scanner and the decoder read a body differently")
        }
    },
    "drawing": fuzzDrawing,  // DrawingTargets.swift
    "ndjson": { splitInvariance($0, .ndjson) },
    "text": { splitInvariance($0, .text) },
    "gpx": { _ = try? GPXReader.read(Data($0)) },
    "tcx": { _ = try? TCXReader.read(Data($0)) },
    "fit": { bytes in
        _ = try? FITReader.read(Data(bytes))
        _ = try? FITReader.read(Data(bytes), partial: true)
    },
    "rfc3339": { bytes in
        guard let t = RFC3339.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        guard t.isFinite, abs(t) < 253_402_300_800 else { return }
        precondition(RFC3339.parse(RFC3339.format(t)) == t, "a formatted time did not read back")
    },
    "route-file": { bytes in _ = try? RouteFile.read(Data(bytes), fileName: "upload") },
    // The server's parsers of untrusted input (RouteRankerModels, compiled here as a target).
    "cursor": fuzzCursor,  // CursorTargets.swift
    "authorization": { bytes in
        guard let token = BearerToken.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        precondition(!token.isEmpty && token.utf8.count <= BearerToken.maxBytes, "an impossible token")
        precondition(BearerToken.parse("Bearer " + token) == token, "a token did not read back")
    },
    "privacy-zones": { bytes in
        guard (try? StrictJSON.validate(bytes)) != nil,
            let list = try? JSONDecoder().decode(PrivacyZoneList.self, from: Data(bytes))
        else { return }
        precondition(list.zones.count <= 10, "more than 10 zones accepted")
        for zone in list.zones {
            precondition(abs(zone.lat) <= 90 && abs(zone.lon) <= 180 && (100...2000).contains(zone.radiusM))
        }
    },
    "group-body": { bytes in
        guard (try? StrictJSON.validate(bytes)) != nil else { return }
        _ = try? JSONDecoder().decode(GroupCreateRequest.self, from: Data(bytes))
        _ = try? JSONDecoder().decode(GroupChangeRequest.self, from: Data(bytes))
    },
]

/// libFuzzer's runtime references this symbol even when it is driven through `LLVMFuzzerRunDriver`.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
guard let selected = targets[name] else {
    FileHandle.standardError.write(
        Data("FUZZ_TARGET must be one of \(targets.keys.sorted().joined(separator: ", "))\n".utf8))
    exit(2)
}
let target: @Sendable ([UInt8]) -> Void = selected

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv) { data, size in testOneInput(data, size) })
