import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// An application whose server, services and request handlers run as tasks on the database client's
/// threads (`MongoClient.executor`) instead of Swift's global executor.
///
/// A handler then makes its database calls in place, on the thread it already runs on: a request
/// that reads the database wakes two threads (the event loop's and one of the pool's) instead of
/// four (the event loop's, a global executor thread, a pool thread, the global one again).
/// Everything else is `base`'s; in the router test mode, which does not `run()` the application,
/// handlers stay on the caller's executor and hand their calls to the pool as before.
struct ApplicationOnDatabaseThreads<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    let executor: any TaskExecutor

    var responder: Responder {
        get async throws { try await base.responder }
    }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
    }

    /// Runs `base` with the executor preferred; the tasks it starts for connections and services
    /// inherit the preference.
    func run() async throws {
        try await withTaskExecutorPreference(executor) { try await base.run() }
    }
}
