import Mongo
import Prometheus

/// The controllers, wired to their repositories once per application.
struct Controllers: Sendable {
    let operations: OperationsController
    let users: UsersController

    init(database: MongoDatabase, registry: PrometheusCollectorRegistry) {
        let userRepository = UserRepository(database: database)
        let auth = Authenticator(users: userRepository)
        operations = OperationsController(database: database, registry: registry)
        users = UsersController(users: userRepository, auth: auth)
    }
}
