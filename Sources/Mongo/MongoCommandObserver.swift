import CLibMongoC

/// A command the driver is about to send, as libmongoc's command monitoring reports it: what a
/// client's observer (`MongoClient(…, observer:)`) is handed, on the thread sending the command.
///
/// The command's bytes are libmongoc's, lent for the observer's call only: read them there (a
/// reader that skips what it does not need costs nothing for a command carrying large documents),
/// never keep them.
public struct MongoCommandStarted {
    /// The database the command is sent to.
    public let databaseName: String
    /// The command's name (`find`, `insert`, `update`, `getMore`, …).
    public let commandName: String
    /// The command document, as BSON bytes, valid only during the observer's call.
    public let commandBytes: UnsafeRawBufferPointer
}

/// Called for every command a client sends (its getMores and retries included), on the sending
/// thread: it must be quick and must not call the driver.
public typealias MongoCommandObserver = @Sendable (MongoCommandStarted) -> Void

extension MongoCommandStarted {
    /// The event's fields, read from a libmongoc command-started event; nil when it lacks one.
    init?(_ event: OpaquePointer) {
        guard let command = mongoc_apm_command_started_get_command(event),
            let name = mongoc_apm_command_started_get_command_name(event),
            let database = mongoc_apm_command_started_get_database_name(event),
            let data = bson_get_data(command)
        else { return nil }
        // A BSON document starts with its own int32 length.
        let length = Int(Int32(littleEndian: UnsafeRawPointer(data).loadUnaligned(as: Int32.self)))
        guard length >= 5 else { return nil }
        self.init(
            databaseName: String(cString: database), commandName: String(cString: name),
            commandBytes: UnsafeRawBufferPointer(start: data, count: length))
    }
}
