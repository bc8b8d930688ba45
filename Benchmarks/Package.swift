// swift-tools-version: 6.1
// The benchmarks of RouteRankerCore (ordo-one/benchmark), a package of their own so that the
// main package builds without them. Run: scripts/bench-core (or `swift package benchmark` here).
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "RouteRanker", path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RouteRankerCore", package: "RouteRanker"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The ceiling for scripts/bench-ingest: the server's buckets inserted straight through libmongoc.
        .executableTarget(
            name: "BucketInsertBench",
            dependencies: [
                .product(name: "Mongo", package: "RouteRanker"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/BucketInsertBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
