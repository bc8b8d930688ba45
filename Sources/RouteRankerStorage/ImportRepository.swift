import Foundation
import Mongo
import RouteRankerModels

/// Imports (API.md "Moving in, moving out, leaving"): the job in `imports`, one result per archive
/// entry in `import_files` (`_id` `"<import>:<index>"`, so recording an entry's result twice is
/// harmless), and the archive itself in `import_chunks` (see `ArchiveChunks`).
///
/// A job is worked on by one process at a time: it is claimed with a version-guarded lease (the
/// `worker` token and `lease_until`), renewed with every entry; a process that dies leaves the
/// lease to run out, and another claims the job and goes on after the last entry recorded.
package struct ImportRepository: Sendable {
    package let imports: MongoCollection
    package let files: MongoCollection

    /// How long a worker may go without recording an entry before another may take the job over.
    package static let lease: TimeInterval = 30

    package init(database: MongoDatabase) {
        imports = database.collection("imports")
        files = database.collection("import_files")
    }

    package static let importIndexes = [
        MongoIndex(keys: ["owner": 1, "created_at": -1, "_id": -1], name: "owner_created_at"),
        // Jobs to claim: queued ones, and running ones whose lease ran out.
        MongoIndex(keys: ["state": 1, "lease_until": 1], name: "state_lease_until"),
        // A user's imports in flight (the per-user bound), and when each user was last served.
        MongoIndex(keys: ["owner": 1, "state": 1, "created_at": 1], name: "owner_state_created_at"),
        MongoIndex(keys: ["owner": 1, "started_at": -1], name: "owner_started_at"),
    ]

    /// The most imports a user may have receiving, queued or running at once (API.md: a third is
    /// `429`).
    package static let maxInFlightPerUser = 2
    /// How long a `receiving` job counts as in flight: an upload of 4 GiB takes minutes; one whose
    /// process died while receiving it is never queued, and must not block its owner for ever.
    package static let receivingCountsFor: TimeInterval = 6 * 3600
    package static let fileIndexes = [MongoIndex(keys: ["import": 1, "index": 1], name: "import_index")]

    /// Stores a new job, `receiving` until its archive is stored.
    package func insert(_ job: ImportRecord) async throws {
        try await imports.insertOne(Self.document(job))
    }

    /// The job `id` if `owner` owns it.
    package func find(id: String, owner: String) async throws -> ImportRecord? {
        guard RouteID.isPlausible(id) else { return nil }
        return try await imports.findOne(["_id": .string(id), "owner": .string(owner)]).flatMap(Self.record)
    }

    /// `owner`'s jobs, newest first, after the keyset position `after` (`[created ms, id]`).
    package func page(owner: String, after: (Int64, String)?, limit: Int) async throws -> [ImportRecord] {
        var filter: BSONDocument = ["owner": .string(owner)]
        if let (ms, id) = after {
            let at = Date(timeIntervalSince1970: Double(ms) / 1000)
            filter["$or"] = [
                ["created_at": ["$lt": .date(at)]], ["created_at": .date(at), "_id": ["$lt": .string(id)]],
            ]
        }
        return try await imports.find(filter, sort: ["created_at": -1, "_id": -1], limit: limit).compactMap(Self.record)
    }

    package func count(owner: String) async throws -> Int {
        try await imports.count(["owner": .string(owner)])
    }

    /// How many of `owner`'s imports are in flight: queued or running, or receiving their
    /// archive since less than ``receivingCountsFor``. Counted in the database (by the
    /// `owner_state_created_at` index), so that the bound holds across server processes.
    package func inFlightCount(owner: String, now: Date) async throws -> Int {
        try await imports.count([
            "owner": .string(owner),
            "$or": [
                ["state": ["$in": ["queued", "running"]]],
                ["state": "receiving", "created_at": ["$gt": .date(now.addingTimeInterval(-Self.receivingCountsFor))]],
            ],
        ])
    }

    /// The archive is stored: the job may be claimed.
    package func queue(id: String, size: Int64) async throws {
        try await imports.updateOne(
            filter: ["_id": .string(id), "state": "receiving"],
            update: ["$set": ["state": "queued", "size": .int64(size)]])
    }

    /// Removes a job that never got its archive (refused, or cut off while receiving).
    package func delete(id: String) async throws {
        _ = try await files.deleteMany(["import": .string(id)])
        _ = try await imports.deleteOne(["_id": .string(id)])
    }

    /// Removes every job of `owner` with its results (leaving; the archives go by `ArchiveChunks`).
    package func deleteAll(owner: String) async throws -> [String] {
        let ids = try await imports.find(["owner": .string(owner)], projection: ["_id": 1]).compactMap {
            $0.string("_id")
        }
        for id in ids { try await delete(id: id) }
        return ids
    }

    /// Claims a job to work on: a queued one, or a running one whose lease ran out by `now`. One
    /// version-guarded write decides between processes. Nil when there is none.
    ///
    /// Fair between users: among the due jobs, the one whose owner was served least recently
    /// (whose latest job started earliest, or never) goes first, then the oldest. So a user with
    /// two big imports queued delays another user's import by at most the job already running,
    /// in whichever process, not by all of theirs.
    package func claim(worker: String, now: Date) async throws -> ImportRecord? {
        let due: BSONDocument = [
            "$or": [["state": "queued"], ["state": "running", "lease_until": Lease.runOut(by: now)]]
        ]
        let candidates = try await imports.find(due, sort: ["created_at": 1], limit: 50).compactMap(Self.record)
        guard !candidates.isEmpty else { return nil }
        let served = try await lastStarted(owners: Array(Set(candidates.map(\.owner))), now: now)
        let ordered = candidates.enumerated().sorted { a, b in
            let (x, y) = (served[a.element.owner] ?? .distantPast, served[b.element.owner] ?? .distantPast)
            return x != y ? x < y : a.offset < b.offset
        }
        for (_, candidate) in ordered {
            let result = try await imports.updateOne(
                filter: ["_id": .string(candidate.id), "version": .int(candidate.version)],
                update: [
                    "$set": [
                        "state": "running", "worker": .string(worker),
                        "lease_until": .date(Lease(from: now, for: Self.lease).until), "started_at": .date(now),
                    ],
                    "$inc": ["version": 1],
                ])
            if result.matchedCount == 1 {
                var claimed = candidate
                claimed.state = .running
                claimed.version += 1
                return claimed
            }
        }
        return nil
    }

    /// When each of `owners` last had a job started (claimed), over the last day; owners not
    /// served in that time are absent (they go first).
    private func lastStarted(owners: [String], now: Date) async throws -> [String: Date] {
        let recent = try await imports.find(
            [
                "owner": ["$in": .array(owners.map(BSONValue.string))],
                "started_at": ["$gt": .date(now.addingTimeInterval(-86_400))],
            ],
            sort: ["started_at": -1], limit: 200, projection: ["owner": 1, "started_at": 1])
        var last: [String: Date] = [:]
        for document in recent {
            guard let owner = document.string("owner"), let started = document.date("started_at") else { continue }
            last[owner] = max(last[owner] ?? started, started)
        }
        return last
    }

    /// Records the number of entries, once known (the archive's directory read).
    package func setTotal(id: String, worker: String, total: Int, now: Date) async throws -> Bool {
        try await held(id, worker, now, ["$set": ["files_total": .int(total)]])
    }

    /// Records the result of entry `index` (first, so that a restart finds it), then counts it
    /// done and renews the lease; false when this worker no longer holds the job.
    package func record(_ result: ImportFileResult, job id: String, worker: String, now: Date) async throws -> Bool {
        try await files.updateOne(
            filter: ["_id": .string("\(id):\(result.index)"), "import": .string(id)],
            update: ["$set": .document(Self.document(result, job: id))],
            upsert: true)
        return try await held(
            id, worker, now,
            [
                "$set": ["files_done": .int(result.index + 1)],
                "$inc": ["counts.\(result.status.rawValue)": 1],
            ], guardDone: result.index)
    }

    /// The results already recorded for a job (a resumed job skips those entries).
    package func recordedCount(job id: String) async throws -> Int {
        try await files.count(["import": .string(id)])
    }

    /// Ends the job: `done`, or `failed` with `error`.
    package func finish(id: String, worker: String, error: String?, now: Date) async throws {
        _ = try await held(
            id, worker, now,
            [
                "$set": [
                    "state": error == nil ? "done" : "failed", "finished_at": .date(now),
                    "error": error.map(BSONValue.string) ?? .null,
                ],
                "$unset": ["lease_until": "", "worker": ""],
            ])
    }

    /// One page of a job's results, in archive order, after entry `after`.
    package func results(job id: String, after: Int?, limit: Int) async throws -> [ImportFileResult] {
        var filter: BSONDocument = ["import": .string(id)]
        if let after { filter["index"] = ["$gt": .int(after)] }
        return try await files.find(filter, sort: ["index": 1], limit: limit).compactMap(Self.result)
    }

    /// An update of job `id` while `worker` holds it (renewing the lease); `guardDone` also
    /// requires that entry `guardDone` is the next one (so a count never goes twice).
    private func held(
        _ id: String, _ worker: String, _ now: Date, _ update: BSONDocument, guardDone: Int? = nil
    ) async throws -> Bool {
        var filter: BSONDocument = ["_id": .string(id), "worker": .string(worker)]
        if let guardDone { filter["files_done"] = .int(guardDone) }
        var update = update
        var set = update.document("$set") ?? [:]
        if set["lease_until"] == nil, update.document("$unset")?["lease_until"] == nil {
            set["lease_until"] = .date(Lease(from: now, for: Self.lease).until)
        }
        update["$set"] = .document(set)
        return try await imports.updateOne(filter: filter, update: update).matchedCount == 1
    }

    private static func document(_ job: ImportRecord) -> BSONDocument {
        [
            "_id": .string(job.id), "owner": .string(job.owner), "state": .string(job.state.rawValue),
            "created_at": .date(job.createdAt), "files_total": .null, "files_done": 0,
            "counts": ["imported": 0, "duplicates": 0, "failed": 0, "skipped": 0], "error": .null, "version": 0,
        ]
    }

    private static func record(_ document: BSONDocument) -> ImportRecord? {
        guard let id = document.string("_id"), let owner = document.string("owner"),
            let state = document.string("state").flatMap(ImportState.init(rawValue:)),
            let created = document.date("created_at")
        else { return nil }
        let counts = document.document("counts") ?? [:]
        return ImportRecord(
            id: id, owner: owner, state: state, createdAt: created, finishedAt: document.date("finished_at"),
            filesTotal: document.int("files_total"), filesDone: document.int("files_done") ?? 0,
            counts: ImportCounts(
                imported: counts.int("imported") ?? 0, duplicates: counts.int("duplicates") ?? 0,
                failed: counts.int("failed") ?? 0, skipped: counts.int("skipped") ?? 0),
            error: document.string("error"), size: document.int("size").map(Int64.init),
            version: document.int("version") ?? 0)
    }

    private static func document(_ result: ImportFileResult, job: String) -> BSONDocument {
        [
            "import": .string(job), "index": .int(result.index), "file": .string(result.file),
            "status": .string(result.status.rawValue), "route": result.route.map(BSONValue.string) ?? .null,
            "error": result.errorJSON.map(BSONValue.string) ?? .null,
        ]
    }

    private static func result(_ document: BSONDocument) -> ImportFileResult? {
        guard let index = document.int("index"), let file = document.string("file"),
            let status = document.string("status").flatMap(ImportFileStatus.init(rawValue:))
        else { return nil }
        return ImportFileResult(
            index: index, file: file, status: status, route: document.string("route"),
            errorJSON: document.string("error"))
    }
}
