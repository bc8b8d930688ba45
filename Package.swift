// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RouteRanker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "routeranker", targets: ["routeranker"]),
        .library(name: "RouteRankerCore", targets: ["RouteRankerCore"]),
        .library(name: "Mongo", targets: ["Mongo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // NIOHTTPTypes: the HTTP parts a channel handler of ours sees (Hummingbird depends on it too).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // System libraries: thin module maps over Debian's -dev packages.
        .systemLibrary(
            name: "CLibMongoC",
            pkgConfig: "libmongoc-1.0",
            providers: [.apt(["libmongoc-dev", "libbson-dev"])]
        ),
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        // libarchive, and zlib for gzip streams (libarchive links it anyway).
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev", "zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),

        // The libmongoc wrapper: generic, knows nothing about routes.
        .target(
            name: "Mongo",
            dependencies: [
                "CLibMongoC",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The libarchive wrapper: zip archives read and written as streams, gzip; generic, knows
        // nothing about routes.
        .target(
            name: "ZipArchive",
            dependencies: ["CArchive"]
        ),

        // The libqrencode wrapper: a text's QR Code modules; generic, knows nothing about routes.
        .target(
            name: "QRCode",
            dependencies: ["CQREncode"]
        ),

        // The domain, pure: no NIO, no HTTP, no Mongo.
        .target(
            name: "RouteRankerCore",
            dependencies: ["CProj"]
        ),

        // The application's records and the pure formats of its requests (bodies, cursors, tokens):
        // Foundation and Core only, so that the fuzz package compiles it as it is.
        .target(
            name: "RouteRankerModels",
            dependencies: ["RouteRankerCore"]
        ),

        // Repositories (Mongo ⇄ records), queries, indexes, migrations, the point buckets and the
        // batching policy of coalesced commands: the only target that imports Mongo, besides the
        // executable's wiring.
        .target(
            name: "RouteRankerStorage",
            dependencies: [
                "Mongo",
                "RouteRankerCore",
                "RouteRankerModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // The HTTP application: sees storage through RouteRankerStorage's types only.
        .target(
            name: "RouteRankerServer",
            dependencies: [
                "RouteRankerCore",
                "RouteRankerModels",
                "RouteRankerStorage",
                "ZipArchive",
                "QRCode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")]
        ),

        .executableTarget(
            name: "routeranker",
            dependencies: [
                "RouteRankerCore",
                "RouteRankerServer",
                "ZipArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // jemalloc (Debian's libjemalloc) as the server's allocator: a request allocates and
            // frees hundreds of small objects across threads, where glibc's malloc spent a tenth of
            // a tracker point's CPU (`perf`); measured: docs/performance.md.
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),

        // Shared by the test targets: where the test database is, and a database process of a
        // test's own for outage tests.
        .target(name: "TestSupport", dependencies: ["RouteRankerCore"], path: "Tests/TestSupport"),
        // The test database for the driver's tests and the storage's: a database of each test's
        // own, clients of one slot, callers against a database that does not answer.
        .target(
            name: "MongoTestSupport",
            dependencies: ["Mongo", .product(name: "Logging", package: "swift-log")],
            path: "Tests/MongoTestSupport"
        ),
        .testTarget(name: "MongoTests", dependencies: ["Mongo", "MongoTestSupport", "TestSupport"]),
        // Its fixtures are written at test time by fixtures.py (Python's zipfile, gzip).
        .testTarget(name: "ZipArchiveTests", dependencies: ["ZipArchive"], exclude: ["fixtures.py"]),
        // Decodes what it encodes with zbarimg (Debian's zbar-tools), an independent reader.
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
        .testTarget(
            name: "RouteRankerCoreTests",
            dependencies: ["RouteRankerCore", "TestSupport"],
            resources: [.copy("Data")]
        ),
        // The records and request formats, without a server or a database.
        .testTarget(name: "RouteRankerModelsTests", dependencies: ["RouteRankerModels", "RouteRankerCore"]),
        // The repositories, their stored formats and the batching of concurrent commands, against
        // the test database, without a server.
        .testTarget(
            name: "RouteRankerStorageTests",
            dependencies: [
                "RouteRankerStorage",
                "RouteRankerModels",
                "RouteRankerCore",
                "Mongo",
                "MongoTestSupport",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RouteRankerServerTests",
            dependencies: [
                "RouteRankerServer",
                "RouteRankerCore",
                "RouteRankerModels",
                "RouteRankerStorage",
                "Mongo",
                "TestSupport",
                "ZipArchive",
                "QRCode",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The command-line tool, run as an executable (`stats` on files, `compare` against a server).
        .testTarget(
            name: "routerankerTests",
            dependencies: [
                "routeranker",
                "RouteRankerServer",
                "RouteRankerModels",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
