import Foundation

/// Where an import is: `receiving` its archive (not shown: the `202` comes once it is stored),
/// then `queued` → `running` → `done`, or `failed` when the archive as a whole cannot be read or
/// passes a limit.
package enum ImportState: String, Sendable {
    case receiving, queued, running, done, failed
}

/// What became of one archive entry.
package enum ImportFileStatus: String, Sendable {
    case imported, duplicates, failed, skipped

    /// The name the contract gives it in a file's result (`duplicate`, singular).
    package var resultName: String { self == .duplicates ? "duplicate" : rawValue }
}

/// The counts of an import's entries by what became of them.
package struct ImportCounts: Sendable, Equatable, Encodable {
    package var imported: Int
    package var duplicates: Int
    package var failed: Int
    package var skipped: Int

    package init(imported: Int = 0, duplicates: Int = 0, failed: Int = 0, skipped: Int = 0) {
        self.imported = imported
        self.duplicates = duplicates
        self.failed = failed
        self.skipped = skipped
    }
}

/// An import job as stored in `imports`.
package struct ImportRecord: Sendable, Equatable {
    package var id: String
    package var owner: String
    package var state: ImportState
    package var createdAt: Date
    package var finishedAt: Date?
    /// The number of entries, once the archive's directory is read.
    package var filesTotal: Int?
    /// Entries whose result is recorded (they are done in archive order).
    package var filesDone: Int
    package var counts: ImportCounts
    package var error: String?
    /// The archive's size in bytes, once stored.
    package var size: Int64?
    /// Bumped by every claim: the guard of the claim's write.
    package var version: Int

    package init(
        id: String, owner: String, state: ImportState, createdAt: Date, finishedAt: Date? = nil, filesTotal: Int? = nil,
        filesDone: Int = 0, counts: ImportCounts = ImportCounts(), error: String? = nil, size: Int64? = nil,
        version: Int = 0
    ) {
        self.size = size
        self.id = id
        self.owner = owner
        self.state = state
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.filesTotal = filesTotal
        self.filesDone = filesDone
        self.counts = counts
        self.error = error
        self.version = version
    }
}

/// The result of one archive entry, in `import_files`.
package struct ImportFileResult: Sendable, Equatable {
    /// The entry's place in the archive (0-based).
    package var index: Int
    /// The entry's name as the archive gives it.
    package var file: String
    package var status: ImportFileStatus
    /// The new route (`imported`) or the route it repeats (`duplicate`).
    package var route: String?
    /// For `failed`: the error object the upload of the file would have answered, as JSON text.
    package var errorJSON: String?

    package init(index: Int, file: String, status: ImportFileStatus, route: String? = nil, errorJSON: String? = nil) {
        self.index = index
        self.file = file
        self.status = status
        self.route = route
        self.errorJSON = errorJSON
    }
}
