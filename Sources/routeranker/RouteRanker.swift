import ArgumentParser

/// `routeranker`: the server, and offline tools for analysts.
@main
struct RouteRanker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routeranker",
        abstract: "RouteRanker: route tracking and ranking.",
        subcommands: [
            ServeCommand.self, StatsCommand.self, CompareCommand.self, SegmentEffortsCommand.self,
            BestEffortsCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
