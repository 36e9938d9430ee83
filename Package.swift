// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Burrow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "burrow", targets: ["BurrowCLI"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "Outline", targets: ["Outline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // The object graph: model, SQLite store, context. Knows nothing of outlines or terminals.
        .target(
            name: "ObjectGraph",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // The outliner's domain on ObjectGraph: items, sibling order, moves.
        .target(name: "Outline", dependencies: ["ObjectGraph"], swiftSettings: strict),
        // The `burrow` subcommands as a library, so tests run them in-process.
        .target(
            name: "BurrowCommands",
            dependencies: [
                "Outline", "ObjectGraph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The `burrow` executable: only `main`.
        .executableTarget(name: "BurrowCLI", dependencies: ["BurrowCommands"], swiftSettings: strict),
        // Benchmarks: each figure beside a raw-SQLite baseline measured in the same run.
        .executableTarget(
            name: "BurrowBenchmarks",
            dependencies: [
                "ObjectGraph", "Outline",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph"], swiftSettings: strict),
        .testTarget(name: "OutlineTests", dependencies: ["Outline", "ObjectGraph"], swiftSettings: strict),
        .testTarget(name: "BurrowCommandsTests", dependencies: ["BurrowCommands", "Outline", "ObjectGraph"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
