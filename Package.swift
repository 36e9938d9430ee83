// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Burrow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "burrow", targets: ["BurrowCLI"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "Outline", targets: ["Outline"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6")
    ],
    targets: [
        // The object graph: model, SQLite store, context. Knows nothing of outlines or terminals.
        .target(
            name: "ObjectGraph",
            dependencies: [
                "CTextScan",
                "CSQLiteConfig",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            swiftSettings: strict
        ),
        // The search index's scan of a chunk's texts (SSE2 where there is SSE2); only ObjectGraph imports it.
        .target(name: "CTextScan"),
        // SQLite's process-wide settings, which take C variadic arguments (Swift cannot pass them); only
        // ObjectGraph imports it, and links SQLite through GRDB.
        .target(name: "CSQLiteConfig"),
        // Markdown as CommonMark with GitHub's task lists: the reference C parser, cmark-gfm, as Swift sees it.
        // Only Outline imports it. (No pkgConfig: the module map links both libraries.)
        .systemLibrary(name: "CCMarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // The outliner's domain on ObjectGraph: items, sibling order, moves.
        .target(name: "Outline", dependencies: ["ObjectGraph", "CCMarkGFM"], swiftSettings: strict),
        // The terminal layer: cells, buffer diffing, display width, sanitising, keys, widgets, the test backend.
        // Knows nothing of the store or of outlines, and nothing of ncurses.
        .target(name: "TerminalKit", swiftSettings: strict),
        // ncursesw as Swift sees it (module map and inline helpers); only CursesBackend imports it.
        // (No pkgConfig: Debian's ncursesw.pc adds -D flags SwiftPM refuses with a warning; the module map links.)
        .systemLibrary(name: "CNCursesW", providers: [.apt(["libncurses-dev"])]),
        // Restores the terminal from signal handlers and at exit (async-signal-safe C).
        .target(name: "CTerminalGuard"),
        // The real terminal: TerminalKit's backend and input source on ncursesw.
        .target(name: "CursesBackend", dependencies: ["TerminalKit", "CNCursesW", "CTerminalGuard"], swiftSettings: strict),
        // A tiny full-screen program for the terminal layer's end-to-end test in tmux (not a product).
        .executableTarget(name: "TerminalDemo", dependencies: ["TerminalKit", "CursesBackend"], swiftSettings: strict),
        // What the outliner can be told, as data: the keymap (commands and their keys), the theme's colours,
        // the settings. The outliner reads them; the config file writes them; neither knows the other.
        .target(name: "BurrowSettings", dependencies: ["TerminalKit", "ObjectGraph"], swiftSettings: strict),
        // The full-screen outliner as a library: levels, quick capture, undo, live updates, views.
        // Draws through TerminalKit only, so it runs on the test backend in tests.
        .target(
            name: "BurrowApp",
            dependencies: ["Outline", "ObjectGraph", "TerminalKit", "BurrowSettings", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The config file ($XDG_CONFIG_HOME/burrow/config.toml): keys, theme, settings, and its problems with
        // line and column, into `BurrowSettings`' values; only this target reads TOML.
        .target(
            name: "BurrowConfig",
            dependencies: ["BurrowSettings", "ObjectGraph", "TerminalKit", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict
        ),
        // The PostgreSQL side of sharing an outline: the server's schema and the function that applies each
        // operation, its change feed, and the connection (postgres-nio). The only code that writes PostgreSQL's SQL.
        // Knows no target of ours: a server, not the object graph's.
        .target(
            name: "OutlineServer",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strict
        ),
        // The device side of a shared outline: what the outbox's entries mean to the server, by external names.
        .target(name: "OutlineSync", dependencies: ["OutlineServer", "Outline", "ObjectGraph"], swiftSettings: strict),
        // The `burrow` subcommands as a library, so tests run them in-process.
        .target(
            name: "BurrowCommands",
            dependencies: [
                "Outline", "ObjectGraph", "TerminalKit", "BurrowConfig", "OutlineServer", "OutlineSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: strict
        ),
        // The `burrow` executable: only `main`.
        .executableTarget(
            name: "BurrowCLI",
            dependencies: [
                "BurrowCommands", "BurrowApp", "BurrowSettings", "BurrowConfig", "CursesBackend", "TerminalKit", "Outline", "OutlineSync",
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strict,
            // A quick command's process is mostly its start (docs/PERFORMANCE.md, issue 34's sixth pass): an
            // executable that exports none of its 41,000 symbols (swiftc exports them all) is not searched by the
            // runtime's `dladdr` at start. It stays position-independent (DECISIONS, 2026-11-30: `-no-pie` saved
            // up to 1.5 ms more and took address randomisation from the image that holds the runtime and Foundation).
            // Release only: tests link this target's code too.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]
        ),
        // Benchmarks: each figure beside a raw-SQLite baseline measured in the same run.
        // The tutorial's example program (docs/OBJECTGRAPH.md, chapter 12): ObjectGraph alone.
        .executableTarget(name: "DVDLibrary", dependencies: ["ObjectGraph"], swiftSettings: strict),
        .executableTarget(
            name: "BurrowBenchmarks",
            dependencies: [
                "ObjectGraph", "Outline", "BurrowApp", "TerminalKit", "OutlineServer", "OutlineSync",
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            swiftSettings: strict
        ),
        // What every test target shares: seeded randomness, temporary folders, polling with a deadline, the
        // screen assertion, the results-controller recorder. A plain target (it is no test bundle) on
        // ObjectGraph and TerminalKit only, so the library tests never build the outliner.
        .target(name: "TestSupport", dependencies: ["ObjectGraph", "TerminalKit"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "BurrowAppTests",
            dependencies: [
                "BurrowApp", "BurrowSettings", "Outline", "ObjectGraph", "TerminalKit", "TestSupport", .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strict),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "CNCursesW", "TerminalKit", "TestSupport"], swiftSettings: strict),
        // Real binaries in a real terminal (tmux); depending on the executables makes `swift test` build them.
        .testTarget(name: "EndToEndTests", dependencies: ["TerminalDemo", "BurrowCLI", "BurrowBenchmarks", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "CTextScan", "TestSupport", "DVDLibrary"], swiftSettings: strict),
        .testTarget(
            name: "OutlineTests", dependencies: ["Outline", "ObjectGraph", "CCMarkGFM", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        // The outline and its store in several real `burrow` processes at once, killed, on a full disk, read
        // only (hence the executable).
        .testTarget(
            name: "OutlineProcessTests",
            dependencies: ["Outline", "ObjectGraph", "BurrowCLI", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "BurrowCommandsTests", dependencies: ["BurrowCommands", "BurrowConfig", "Outline", "ObjectGraph", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "BurrowConfigTests", dependencies: ["BurrowConfig", "BurrowSettings", "ObjectGraph", "TerminalKit", "TestSupport"],
            swiftSettings: strict
        ),
        // Sharing, against a throwaway PostgreSQL cluster the tests start on loopback: the server side, the
        // device side, and `burrow sync` in real processes (hence the executable).
        .testTarget(
            name: "OutlineServerTests",
            dependencies: [
                "OutlineServer", "OutlineSync", "Outline", "ObjectGraph", "BurrowCLI", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio")
            ],
            swiftSettings: strict),
        // The package's shape: dependencies one way, read from this manifest and every file's imports.
        .testTarget(name: "ArchitectureTests", swiftSettings: strict),
        // The live benchmark's screen model, against written-out output and against tmux on the real `burrow`.
        .testTarget(name: "BurrowBenchmarksTests", dependencies: ["BurrowBenchmarks", "BurrowCLI", "TestSupport"], swiftSettings: strict)
    ],
    swiftLanguageModes: [.v6]
)

// Debug builds of this checkout are built for the test suite, which is what builds them most (CI twice, every
// `swift test`):
// - The library, the outline and the sync client are optimized: the tests spend most of their time in them, and
//   unoptimized they ran about twice as long (generic code unspecialized, every value retained).
//   `-assert-config Debug` keeps their `assert`s. `.ci/run` checks that the flags are there. (2026-11-30)
// - Debug information stays SwiftPM's full `-g`: `-gline-tables-only` among a target's flags never reached the
//   compiler (SwiftPM puts its own `-g` after them, and the last wins), and given to the frontend itself it saved
//   nothing measurable (ObjectGraph 141 against 144 s of processor time, ObjectGraphTests 91–100 against 89–104;
//   2026-12-02).
// `BURROW_UNOPTIMIZED=1` leaves the optimization out: a debugger's build (the sanitizer's pass below optimizes two
// of the libraries anyway). Never as another package's dependency: SwiftPM refuses a product whose targets carry
// unsafe flags there, so a checkout under `checkouts/` (SwiftPM's and Xcode's) or a registry's download stays as
// its user builds it. (While resolving versions SwiftPM reads a dependency's manifest from git as if it were at `/`.)
let builtAsDependency =
    Context.packageDirectory == "/" || ["/checkouts/", "/registry/downloads/"].contains { Context.packageDirectory.contains($0) }
if !builtAsDependency, (Context.environment["BURROW_UNOPTIMIZED"] ?? "").isEmpty {
    for target in package.targets where ["ObjectGraph", "Outline", "OutlineSync"].contains(target.name) {
        // OutlineSync is compiled in six batches, not one per core: it waits for the PostgreSQL client and
        // everything after it waits for it, and of its two batches one held `Rebase.swift`'s 8 s of optimizing
        // and took 20 s alone while the other core had nothing to do (25 → 16 s alone, 2026-12-02).
        let batches = target.name == "OutlineSync" ? ["-j6"] : []
        target.swiftSettings =
            (target.swiftSettings ?? []) + [.unsafeFlags(["-O", "-assert-config", "Debug"] + batches, .when(configuration: .debug))]
    }
}

// `BURROW_SANITIZE=address` (`.ci/run`'s second pass): the code that handles raw memory is built with that
// sanitizer — the object graph (SQLite's C API, the search index's scan) and the outline (cmark's C API, the
// streaming importers) — and only their tests are declared, so the pass compiles nothing else: not the
// outliner, the commands or the sync client (whose little pointer code, the import's mapped file and the
// environment read by bytes, runs unsanitized in the plain pass),
// and not GRDB, the PostgreSQL client, TLS or crypto, whose flags do not change, so the first pass's build of
// them is reused (`swift test --sanitize` would compile them again, 7 minutes on 2 cores). (2026-11-30: the
// pass had also run the process and sharing tests through a sanitized `burrow`; its build and tests took 900
// of CI's 2,583 s.)
if let sanitizer = Context.environment["BURROW_SANITIZE"], !sanitizer.isEmpty {
    // (DVDLibrary: the tutorial's example, which ObjectGraphTests run as processes.)
    let declared: Set<String> = [
        "ObjectGraph", "CTextScan", "CSQLiteConfig", "Outline", "CCMarkGFM", "TerminalKit", "TestSupport", "ObjectGraphTests", "OutlineTests",
        "DVDLibrary"
    ]
    package.targets.removeAll { !declared.contains($0.name) }
    package.products.removeAll { $0.name == "burrow" }
    // The terminal layer (TestSupport's screens need it) has no test in this pass and does not depend on the
    // object graph: it keeps the first pass's flags, so its compiled code is linked again (2026-11-29).
    for target in package.targets where target.type != .system && target.name != "TerminalKit" {
        // The tests and their helpers keep the first pass's compiler flags too, so that build of them is reused
        // (the driver compiles nothing when the library's interface is unchanged): only linked with the runtime.
        // The checks are the library's: an overread inside ObjectGraph is reported whoever calls it, and the
        // runtime's allocator watches every heap block, the tests' too (2026-12-01: this pass's build 130 s, was
        // 250-358 s with both test targets compiled again).
        if target.type == .test || target.name == "TestSupport" {
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)", "-use-ld=lld"])]
            continue
        }
        // ObjectGraph and Outline are optimized (above, and so here too: clang's advice for AddressSanitizer);
        // their tests ran 297 s unoptimized, 151 s so (2026-11-29).
        let optimized = ["ObjectGraph", "Outline"].contains(target.name) ? ["-O"] : []
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"] + optimized)]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=\(sanitizer)"])]
        // lld: gold warns about 140 of the sanitizer runtime's symbols per executable.
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)", "-use-ld=lld"])]
    }
}
