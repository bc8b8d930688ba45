import Foundation
import Hummingbird
import RouteRankerModels
import RouteRankerStorage

/// Imports (API.md "Moving in, moving out, leaving"): `POST /v1/imports` stores the archive and
/// answers `202`; `ImportWorker` does the rest, in whichever process claims the job; these reads
/// show how far it got.
struct ImportsController: Sendable {
    let auth: Authenticator
    let imports: ImportRepository
    let chunks: ArchiveChunks
    let clock: WallClock

    /// The largest archive taken.
    static let maxArchiveBytes: Int64 = 4 << 30

    /// `POST /v1/imports`: the body, a zip archive, is stored chunk by chunk as it arrives (memory
    /// holds one chunk and the last 64 KiB, whatever the archive's size), so the `202` means it is
    /// durable. A body whose end holds no zip "end of central directory" record is not a zip:
    /// `400`, and nothing stays stored.
    func create(_ request: Request, _ context: AppRequestContext) async throws -> JSONResponse<ImportView> {
        let user = try await auth.user(request)
        _ = try request.requireMediaType(["application/zip"])
        if let declared = request.headers[.contentLength].flatMap(Int64.init), declared > Self.maxArchiveBytes {
            throw APIError.payloadTooLarge("an archive may be at most 4 GiB")
        }
        // At most two in flight per user (API.md): counted before anything is stored, and again
        // once this job is, so that two uploads racing (in any processes) cannot both slip under.
        try await refuseOverTheBound(user.id, counting: 0)
        let job = ImportRecord(id: NewID.make(), owner: user.id, state: .receiving, createdAt: clock.now)
        try await imports.insert(job)
        do {
            try await refuseOverTheBound(user.id, counting: 1)
            var pending: [UInt8] = []
            pending.reserveCapacity(ArchiveChunks.chunkSize)
            var tail = ZipTail()
            var n = 0
            var size: Int64 = 0
            for try await buffer in request.body {
                size += Int64(buffer.readableBytes)
                guard size <= Self.maxArchiveBytes else {
                    throw APIError.payloadTooLarge("an archive may be at most 4 GiB")
                }
                tail.append(buffer.readableBytesView)
                pending += buffer.readableBytesView
                while pending.count >= ArchiveChunks.chunkSize {
                    try await chunks.store(job: job.id, n: n, bytes: Array(pending.prefix(ArchiveChunks.chunkSize)))
                    pending.removeFirst(ArchiveChunks.chunkSize)
                    n += 1
                }
            }
            guard tail.hasEndOfCentralDirectory else {
                throw APIError.invalid("the body is not a zip archive (it has no central directory)", field: "body")
            }
            if !pending.isEmpty { try await chunks.store(job: job.id, n: n, bytes: pending) }
            try await imports.queue(id: job.id, size: size)
        } catch {
            // Nothing of a refused or cut-off upload stays (a failure here is the database's: the
            // chunks left behind name a job that no list shows).
            try? await chunks.deleteAll(job: job.id)
            try? await imports.delete(id: job.id)
            throw error
        }
        var queued = job
        queued.state = .queued
        return JSONResponse(
            status: .accepted, headers: [.location: "/v1/imports/\(job.id)"], body: ImportView(queued))
    }

    /// How long a refused client should wait: an import takes seconds to minutes.
    static let retryAfterSeconds = 60

    /// `429` when `user` has more imports in flight than the bound allows, `mine` of them this
    /// request's own job.
    private func refuseOverTheBound(_ user: String, counting mine: Int) async throws {
        let limit = ImportRepository.maxInFlightPerUser
        guard try await imports.inFlightCount(owner: user, now: clock.now) > limit - 1 + mine else { return }
        throw APIError.tooManyRequests(
            "you have \(limit) imports queued or running; wait until one is done, then send this one again",
            retryAfterSeconds: Self.retryAfterSeconds)
    }

    /// `GET /v1/imports/{id}`.
    func get(_ request: Request, _ context: AppRequestContext) async throws -> ImportView {
        ImportView(try await owned(request, context))
    }

    /// `GET /v1/imports`: mine, newest first.
    func list(_ request: Request, _ context: AppRequestContext) async throws -> Page<ImportView> {
        let user = try await auth.user(request)
        let list = "imports"
        let page = try PageRequest(request, list: list, shape: .dateThenID)
        let after = page.after.flatMap { key -> (Int64, String)? in
            guard key.count == 2, let ms = Int64(key[0]) else { return nil }
            return (ms, key[1])
        }
        let found = try await imports.page(owner: user.id, after: after, limit: page.limit + 1)
        let items = Array(found.prefix(page.limit))
        let next =
            found.count > page.limit
            ? items.last.map { Cursor(list: list, key: [$0.createdAt.millisecondsKey, $0.id]).encoded } : nil
        return Page(items: items.map(ImportView.init), next: next, total: try await imports.count(owner: user.id))
    }

    /// `GET /v1/imports/{id}/files`: one item per entry done so far, in archive order.
    func files(_ request: Request, _ context: AppRequestContext) async throws -> Page<ImportFileView> {
        let job = try await owned(request, context)
        let list = "import-files:\(job.id)"
        let page = try PageRequest(request, list: list, shape: .fileIndex)
        let after = page.after.flatMap { $0.first.flatMap(Int.init) }
        let found = try await imports.results(job: job.id, after: after, limit: page.limit + 1)
        let items = Array(found.prefix(page.limit))
        let next =
            found.count > page.limit ? items.last.map { Cursor(list: list, key: [String($0.index)]).encoded } : nil
        return Page(items: items.map(ImportFileView.init), next: next, total: job.filesDone)
    }

    private func owned(_ request: Request, _ context: AppRequestContext) async throws -> ImportRecord {
        let user = try await auth.user(request)
        guard let job = try await imports.find(id: try context.parameters.require("id"), owner: user.id),
            job.state != .receiving
        else { throw APIError.notFound("import not found") }
        return job
    }
}

/// The last bytes of a body, to find zip's "end of central directory" record: it ends the
/// archive, followed by a comment of at most 65,535 bytes, so it lies in the last 65,557 bytes.
struct ZipTail {
    static let window = 65_557
    private(set) var bytes: [UInt8] = []

    mutating func append(_ more: some Collection<UInt8>) {
        bytes += more
        if bytes.count > 2 * Self.window { bytes.removeFirst(bytes.count - Self.window) }
    }

    /// Whether the record's signature (`PK\u{5}\u{6}`) is there, far enough from the end to hold
    /// the record's 22 bytes.
    var hasEndOfCentralDirectory: Bool {
        let last = bytes.suffix(Self.window)
        guard last.count >= 22 else { return false }
        let start = last.startIndex
        for i in stride(from: last.endIndex - 22, through: start, by: -1)
        where last[i] == 0x50 && last[i + 1] == 0x4B && last[i + 2] == 0x05 && last[i + 3] == 0x06 {
            return true
        }
        return false
    }
}

/// An import as the API shows it.
struct ImportView: APIResponse {
    var id: String
    var state: String
    var createdAt: Date
    var finishedAt: Date?
    var filesTotal: Int?
    var filesDone: Int
    var counts: ImportCounts
    var error: String?

    init(_ job: ImportRecord) {
        id = job.id
        state = job.state.rawValue
        createdAt = job.createdAt
        finishedAt = job.finishedAt
        filesTotal = job.filesTotal
        filesDone = job.filesDone
        counts = job.counts
        error = job.error
    }

    private enum CodingKeys: String, CodingKey {
        case id, state, createdAt, finishedAt, filesTotal, filesDone, counts, error
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(state, forKey: .state)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(finishedAt, forKey: .finishedAt)  // explicit nulls, as the contract lists them
        try container.encode(filesTotal, forKey: .filesTotal)
        try container.encode(filesDone, forKey: .filesDone)
        try container.encode(counts, forKey: .counts)
        try container.encode(error, forKey: .error)
    }
}

/// One entry's result.
struct ImportFileView: Encodable, Sendable {
    var file: String
    var status: String
    var route: String?
    var error: JSONValue?

    init(_ result: ImportFileResult) {
        file = result.file
        status = result.status.resultName
        route = result.route
        error = result.errorJSON.flatMap { JSONValue(json: $0) }
    }

    private enum CodingKeys: String, CodingKey { case file, status, route, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(status, forKey: .status)
        try container.encode(route, forKey: .route)
        try container.encode(error, forKey: .error)
    }
}
