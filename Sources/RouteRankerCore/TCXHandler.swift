import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The SAX side of ``TCXReader``: follows the element path and collects positioned trackpoints.
final class TCXHandler: NSObject, XMLParserDelegate {
    weak var parser: XMLParser?
    var error: FormatError?
    var sawRoot = false
    var points: [TrackPoint] = []
    var sport: String?
    var notes: String?
    private var activities = 0
    private var path: [String] = []
    private var text = ""
    private var current: Raw?

    private struct Raw {
        var time: String?
        var lat: String?
        var lon: String?
        var ele: String?
        var positioned = false
        var line: Int
    }

    private static let trackpointPath = [
        "TrainingCenterDatabase", "Activities", "Activity", "Lap", "Track", "Trackpoint",
    ]

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard path.count < TCXReader.maxDepth else {
            return fail(.body("TCX nesting is deeper than \(TCXReader.maxDepth) elements", line: parser.lineNumber))
        }
        if path.isEmpty {
            guard name == "TrainingCenterDatabase" else {
                return fail(.body("the document is not TCX (no <TrainingCenterDatabase> element)"))
            }
            sawRoot = true
        }
        path.append(name)
        text = ""
        if path == Array(Self.trackpointPath.prefix(3)) {
            activities += 1
            if activities == 1 { sport = attributes["Sport"] }
        }
        if path == Self.trackpointPath { current = Raw(line: parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Only leaf values matter; cap what a long text node can make us hold.
        if text.utf8.count < 4096 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            path.removeLast()
            text = ""
        }
        let depth = path.count
        if depth == 4, name == "Notes", activities == 1, path.starts(with: Self.trackpointPath.prefix(3)) {
            notes = notes ?? text
        }
        guard current != nil, path.starts(with: Self.trackpointPath) else { return }
        switch (depth, name) {
        case (6, _): finishTrackpoint()
        case (7, "Time"): current?.time = text
        case (7, "AltitudeMeters"): current?.ele = text
        case (7, "Position"): current?.positioned = true
        case (8, "LatitudeDegrees") where path[6] == "Position": current?.lat = text
        case (8, "LongitudeDegrees") where path[6] == "Position": current?.lon = text
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil { error = .body("the TCX document is not well-formed XML", line: parser.lineNumber) }
    }

    private func finishTrackpoint() {
        guard let raw = current else { return }
        current = nil
        guard raw.positioned else { return }
        let index = points.count
        do {
            func number(_ s: String?, _ key: String) throws -> Double? {
                guard let s = s?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
                guard let v = DecimalNumbers.parse(s) else {
                    throw FormatError.point(index, key: key, "\(key) must be a number", line: raw.line)
                }
                return v
            }
            let lat = try number(raw.lat, "LatitudeDegrees")
            let lon = try number(raw.lon, "LongitudeDegrees")
            let ele = try number(raw.ele, "AltitudeMeters")
            guard let time = raw.time else {
                throw FormatError.point(index, key: "Time", "Time is required", line: raw.line)
            }
            guard let t = RFC3339.parse(time.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw FormatError.point(index, key: "Time", "Time is not an ISO 8601 date and time", line: raw.line)
            }
            points.append(
                try PointValidation.point(
                    lat: lat, lon: lon, t: t, ele: ele, acc: nil, index: index, timeKey: "Time", line: raw.line))
        } catch let e as FormatError {
            fail(e)
        } catch {
            fail(.body("the TCX document could not be read"))
        }
    }

    private func fail(_ e: FormatError) {
        if error == nil { error = e }
        parser?.abortParsing()
    }
}
