import Foundation
import Logging
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import ServiceLifecycle
import ZipArchive

/// Works through import jobs (API.md "Moving in, moving out, leaving"), in every server process:
/// claims a queued job, or a running one whose worker stopped renewing its lease (it died), with
/// one version-guarded write (`ImportRepository.claim`), so two processes never work on one job.
///
/// A job: the archive is copied from the database to a temporary file, chunk by chunk (memory
/// holds one chunk; libarchive's zip reader needs to seek, to the central directory first), its
/// directory is read (`files_total`), Strava's `activities.csv` is read for names and types, and
/// then each entry in archive order is read as a stream with a cap, inflated if it is gzip'd,
/// and imported as its upload would be (`ImportedRoutes`). Each entry's result is recorded before
/// the next entry is begun, guarded by the lease and by `files_done`, so that a job taken over
/// after a crash skips the entries already recorded and records none twice; an entry whose route
/// was stored just before the crash finds that route (its id is fixed by the entry).
///
/// Why libarchive: Debian's well-kept library reads zip's central directory and inflates entries
/// as streams with a cap on what they inflate to (a zip bomb stops at the cap, not at the end),
/// and the same library writes the export's zip; a hand-written inflater would be neither.
struct ImportWorker: Service {
    /// The contract's limits.
    static let maxEntryBytes: Int64 = 256 << 20
    static let maxEntries = 100_000
    static let maxInflatedBytes: Int64 = 16 << 30
    /// `activities.csv` is read into memory: Strava's is a few MB for years of activities.
    static let maxCSVBytes: Int64 = 64 << 20

    let imports: ImportRepository
    let chunks: ArchiveChunks
    let importer: ImportedRoutes
    let clock: WallClock
    let interval: Duration
    let logger: Logger
    /// This process's name in the jobs it holds.
    let worker = NewID.make()

    /// Runs on its own thread (`CostlyThreads.imports`, at a lower priority): reading and
    /// inflating an entry of 256 MiB takes seconds of CPU that the request threads must not lose.
    func run() async throws {
        await withTaskExecutorPreference(CostlyThreads.imports) { await work() }
    }

    private func work() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await workOnce() { continue }
                } catch is CancellationError {
                    return
                } catch {
                    // The database may be down: the lease runs out and the job is claimed again.
                    logger.warning("import job step failed: \(error)")
                }
                try? await clock.sleep(for: interval)
            }
        }
    }

    /// Claims and works through one job; false when there was none to claim.
    func workOnce() async throws -> Bool {
        guard let job = try await imports.claim(worker: worker, now: clock.now) else { return false }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "routeranker-import-\(job.id)-\(worker)")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try await copyArchive(of: job, to: file)
            try await work(on: job, archive: file.path)
        } catch let failure as JobFailure {
            try await imports.finish(id: job.id, worker: worker, error: failure.message, now: clock.now)
            try await chunks.deleteAll(job: job.id)
        }
        return true
    }

    /// Why a job failed as a whole (the archive cannot be read, or passes a limit).
    struct JobFailure: Error {
        var message: String
    }

    /// The archive, from its chunks to a local file (read back by position, as libarchive needs).
    private func copyArchive(of job: ImportRecord, to file: URL) async throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else { throw JobFailure(message: "the server could not make a temporary file for the archive") }
        defer { try? handle.close() }
        let size = job.size ?? 0
        let count = Int((size + Int64(ArchiveChunks.chunkSize) - 1) / Int64(ArchiveChunks.chunkSize))
        for n in 0..<count {
            try handle.write(contentsOf: try await chunks.chunk(job: job.id, n: n))
        }
    }

    private func work(on job: ImportRecord, archive path: String) async throws {
        // The directory first: how many entries, and Strava's names and types if it has them.
        let listing: [ZipEntry]
        var strava: StravaActivities?
        do {
            let reader = try ZipReader(source: try FileSource(path: path), maxEntryBytes: Self.maxCSVBytes)
            listing = try reader.entries()
            guard listing.count <= Self.maxEntries else {
                throw JobFailure(message: "the archive has more than \(Self.maxEntries) entries")
            }
            strava = Self.strava(in: listing, of: path)
        } catch let error as ZipError {
            throw JobFailure(message: "the archive cannot be read: \(error)")
        }
        guard try await imports.setTotal(id: job.id, worker: worker, total: listing.count, now: clock.now) else {
            return  // taken over by another process
        }

        let done = try await imports.recordedCount(job: job.id)
        var inflated: Int64 = 0
        let reader: ZipReader
        do {
            reader = try ZipReader(source: try FileSource(path: path), maxEntryBytes: Self.maxEntryBytes)
        } catch {
            throw JobFailure(message: "the archive cannot be read: \(error)")
        }
        var index = 0
        while let entry = try Self.next(reader) {
            defer { index += 1 }
            guard index >= done else { continue }
            try Task.checkCancellation()
            var result = ImportFileResult(index: index, file: entry.name, status: .skipped)
            if case .route(let format, let gzipped) = ImportEntry.kind(ofName: entry.name), !entry.isDirectory {
                do {
                    let bytes = try Self.readEntry(reader, gzipped: gzipped, inflated: &inflated)
                    let named = strava?.entry(forPath: entry.name)
                    switch try await importer.importFile(
                        Data(bytes), format: format, id: ImportedRoutes.routeID(job: job.id, index: index),
                        owner: job.owner, name: named?.name, activity: named?.activity)
                    {
                    case .imported(let route):
                        result = ImportFileResult(index: index, file: entry.name, status: .imported, route: route)
                    case .duplicate(let route):
                        result = ImportFileResult(index: index, file: entry.name, status: .duplicates, route: route)
                    }
                } catch let failure as JobFailure {
                    throw failure
                } catch {
                    guard let refusal = Self.refusal(error) else { throw error }
                    result = ImportFileResult(index: index, file: entry.name, status: .failed, errorJSON: refusal)
                }
            }
            guard try await imports.record(result, job: job.id, worker: worker, now: clock.now) else { return }
        }
        try await imports.finish(id: job.id, worker: worker, error: nil, now: clock.now)
        try await chunks.deleteAll(job: job.id)
    }

    /// The current entry's bytes, inflated if `gzipped`, each step capped at 256 MiB (an entry
    /// past it throws without inflating further); `inflated` counts the archive's total, which
    /// past 16 GiB fails the job as a whole.
    static func readEntry(_ reader: ZipReader, gzipped: Bool, inflated: inout Int64) throws -> [UInt8] {
        var bytes = try reader.readAll()
        inflated += Int64(bytes.count)
        if gzipped {
            bytes = try Gunzip.decompress(bytes, maxBytes: maxEntryBytes)
            inflated += Int64(bytes.count)
        }
        guard inflated <= maxInflatedBytes else {
            throw JobFailure(message: "the archive's entries inflate to more than 16 GiB")
        }
        return bytes
    }

    /// Strava's names and types, if the archive has an `activities.csv` (read with its own reader).
    static func strava(in listing: [ZipEntry], of path: String) -> StravaActivities? {
        guard let csv = listing.first(where: { ImportEntry.isStravaActivitiesCSV($0.name) }) else { return nil }
        return try? read(entry: csv.index, of: path, maxBytes: maxCSVBytes).flatMap {
            try StravaActivities(parsing: $0)
        }
    }

    /// The next entry, a damaged archive failing the job as a whole.
    static func next(_ reader: ZipReader) throws -> ZipEntry? {
        do {
            return try reader.nextEntry()
        } catch let error as ZipError {
            throw JobFailure(message: "the archive cannot be read further: \(error)")
        }
    }

    /// The error object an upload of the file would have answered, as JSON, for an error that is
    /// the file's (a `4xx`); nil for a failure of the server or the database, which ends this
    /// attempt at the job instead (the lease runs out and the job goes on later).
    static func refusal(_ error: any Error) -> String? {
        let mapped: APIError
        switch error {
        case ZipError.entryTooLarge, ZipError.decompressedTooLarge:  // the zip entry, or its gzip'd content
            mapped = .payloadTooLarge("the file inflates to more than 256 MiB")
        case let error as ZipError:
            mapped = .invalid("the file cannot be read from the archive: \(error)", field: "body")
        default:
            mapped = APIError(mapping: error)
        }
        guard (400..<500).contains(mapped.status.code) else { return nil }
        return mapped.objectJSON
    }

    /// The bytes of entry `index` (read with its own reader), or nil when it is too large.
    private static func read(entry index: Int, of path: String, maxBytes: Int64) throws -> [UInt8]? {
        let reader = try ZipReader(source: try FileSource(path: path), maxEntryBytes: maxBytes)
        while let entry = try reader.nextEntry() {
            if entry.index == index { return try? reader.readAll() }
        }
        return nil
    }
}
