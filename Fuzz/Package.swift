// swift-tools-version: 6.1
// libFuzzer targets for the parsers of untrusted input (scripts/fuzz builds and runs them). A package
// of its own, so that the main build is unchanged: unsafe flags are allowed only in a root package.
// Core's and Models' sources are compiled here a second time (their targets, through symlinks) with
// the fuzzer's coverage instrumentation, so libFuzzer is guided by the parsers' own branches, not
// only the harness's.
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "RouteRankerFuzz",
    targets: [
        .systemLibrary(name: "CProj", path: "Sources/CProj", pkgConfig: "proj"),
        .target(
            name: "RouteRankerCore", dependencies: ["CProj"], path: "Sources/RouteRankerCore", swiftSettings: fuzzFlags),
        .target(
            name: "RouteRankerModels", dependencies: ["RouteRankerCore"], path: "Sources/RouteRankerModels",
            swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzTargets",
            dependencies: ["RouteRankerCore", "RouteRankerModels"],
            swiftSettings: fuzzFlags,
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
