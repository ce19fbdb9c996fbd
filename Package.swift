// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StateHub",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "StateHubJSON", targets: ["StateHubJSON"]),
        .library(name: "JSEngine", targets: ["JSEngine"]),
        .library(name: "Trace", targets: ["Trace"]),
        .library(name: "StateHub", targets: ["StateHub"]),
        .library(name: "CapabilityBridge", targets: ["CapabilityBridge"]),
        .library(name: "StyleTokens", targets: ["StyleTokens"]),
        .library(name: "StateHubTesting", targets: ["StateHubTesting"]),
        .executable(name: "statehub", targets: ["StateHubCLI"]),
        // Yjs-compatible shared documents
        .library(name: "SharedDocument", targets: ["SharedDocument"]),
        // One-call page set-up
        .library(name: "StateHubPage", targets: ["StateHubPage"]),
        // Micro-app delivery: the server, and the device's side of it
        .library(name: "StateHubServer", targets: ["StateHubServer"]),
        .library(name: "Delivery", targets: ["Delivery"]),
        // Shared documents on the device: the native sync client, and what pages see of it
        .library(name: "SharedDocumentSync", targets: ["SharedDocumentSync"]),
        .library(name: "SharedStores", targets: ["SharedStores"]),
        // The board of docs/sync.md §4, runnable (`swift run board-example`)
        .executable(name: "board-example", targets: ["BoardExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // The hub's test clock, whole-value diffs in StateHubTesting, DocC builds
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The server: HTTP, templates, service lifecycle, storage, signatures, metrics
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The y-websocket endpoint (server) and the native sync client's WebSocket
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // The native sync client's disk queue
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The only C in the package: JavaScriptCore's public C API plus the few
        // exported-but-undeclared functions and GLib main-context calls we need.
        .systemLibrary(
            name: "CJSCore",
            path: "CJSCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // The one JSON layer: value, tokenizer, parser, text. No engine, so Trace can use it.
        .target(
            name: "StateHubJSON",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // JavaScriptCore as a Swift actor on its own thread, and PageTransport, the seam to a page.
        .target(
            name: "JSEngine",
            dependencies: [
                "StateHubJSON",
                .target(name: "CJSCore", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // Every file under js/ as Swift string constants, generated at build time.
        .executableTarget(name: "EmbedJSTool"),
        .plugin(name: "EmbedJS", capability: .buildTool(), dependencies: ["EmbedJSTool"]),
        .target(name: "JSSources", plugins: ["EmbedJS"]),
        // Trace records, recorder, redaction and timeline; redaction uses StateHubJSON's tokenizer.
        .target(name: "Trace", dependencies: ["StateHubJSON"]),
        // GlobalStateHub: stores mirrored in Swift, kept in sync with the pages that own them.
        .target(
            name: "StateHub",
            dependencies: [
                "JSEngine", "Trace", "JSSources",
                "StateHubJSON",  // re-exported: MutationOp and PathStep live there (docs/layout.md)
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),  // dropped snapshots are warnings (docs/pool.md)
                .product(name: "Crypto", package: "swift-crypto"),  // long store ids' snapshot file names (docs/pool.md)
            ]
        ),
        // Test support for users of the hub: an in-memory page and whole-value assertions.
        .target(
            name: "StateHubTesting",
            dependencies: [
                "StateHub", "JSEngine",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ]
        ),
        // The capability bridge: native handlers pages call. BridgePageStyleSheet (a theme's
        // stylesheet sent through the bridge) lives here, so StyleTokens needs no engine.
        .target(name: "CapabilityBridge", dependencies: ["JSEngine", "Trace", "JSSources", "StyleTokens"]),
        // Themes: the token contract, resolution, validation and CSS; no engine.
        .target(
            name: "StyleTokens",
            dependencies: [
                "StateHubJSON",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // One-call page set-up, as `statehub run` does it, and the pool of warm pages.
        .target(
            name: "StateHubPage",
            dependencies: [
                "StateHub", "CapabilityBridge", "JSEngine", "Trace",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "StateHubPageTests", dependencies: ["StateHubTestSupport", "StateHubPage", "StateHub", "JSEngine", "Trace"]),
        // What `statehub types` infers and writes; no engine (docs/types.md).
        .target(name: "StateHubTypes", dependencies: ["StateHubJSON"]),
        .testTarget(name: "StateHubTypesTests", dependencies: ["StateHubTestSupport", "StateHubTypes", "StateHubPage", "StateHub", "JSEngine"],
                    exclude: ["Fixtures"]),
        // The rules for a version's asset paths and content types, shared by the server
        // (upload) and Delivery (writing to disk); no dependencies.
        .target(name: "MicroAppAssets"),
        // The micro-app server (`statehub serve`) and its y-websocket endpoint. StyleTokens
        // validates uploaded themes and renders their CSS variables; neither pulls in the engine.
        .target(
            name: "StateHubServer",
            dependencies: [
                "StyleTokens", "JSSources", "MicroAppAssets",
                "Trace", "StateHubJSON",  // the console's trace timeline (TimelineModel); neither starts an engine
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                // the y-websocket endpoint (Sync/)
                "SharedDocument",
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
        ),
        // The device's side of the server: packages on disk, fallback, the HTTP theme source.
        .target(
            name: "Delivery",
            dependencies: [
                "StyleTokens", "Trace", "MicroAppAssets",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StateHubServerTests",
            dependencies: [
                "StateHubServer", "StyleTokens", "MicroAppAssets", "StateHubTestSupport",
                "Trace",  // the console's trace timeline is fed traces written by Trace's own writer
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Clocks", package: "swift-clocks"),  // the snapshot cache's lease on a test clock
            ]
        ),
        // The y-websocket endpoint against real clients.
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "StateHubServer", "SharedDocument", "SharedDocumentSync", "SharedStores", "StateHubPage", "StateHub", "Trace",
                "StateHubCLI",  // the kill -9 test runs the built `statehub serve`
                "StateHubTestSupport",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Clocks", package: "swift-clocks"),  // the sync client's back-off on a test clock
            ],
            exclude: ["Peers"]
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [
                "StateHubTestSupport",  // the suites' kind tags and the shared event waiter
                "Delivery", "StateHubServer", "StyleTokens", "JSEngine",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),  // signed releases: bytes changed in storage after upload
            ]
        ),
        // The `statehub` command-line tool.
        .executableTarget(
            name: "StateHubCLI",
            dependencies: [
                "StateHub", "CapabilityBridge", "StyleTokens", "JSEngine", "Trace", "JSSources", "StateHubPage", "StateHubJSON",
                "StateHubTypes", // `statehub types`
                "StateHubServer", "Delivery", .product(name: "Hummingbird", package: "hummingbird"), // `serve`, `release`
                "SharedDocument", // `statehub doc`, `bench crdt`
                "StateHubTesting", // the seeded generator that soak and bench workloads replay
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A pure-Swift Yjs document model and update format; no engine.
        .target(
            name: "SharedDocument",
            dependencies: ["StateHubJSON", .product(name: "OrderedCollections", package: "swift-collections")]  // string escaping from the one JSON layer; YObject's named keys
        ),
        // A shared document that works offline and syncs with a y-websocket server.
        .target(
            name: "SharedDocumentSync",
            dependencies: [
                "SharedDocument",
                "StateHubJSON",  // presence states
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What pages see of shared documents: sync status in the bridge.
        .target(name: "SharedStores", dependencies: ["SharedDocumentSync", "SharedDocument", "CapabilityBridge", "StateHub", "StateHubJSON"]),
        // The board of docs/sync.md §4 as a program, with its Yjs web client.
        .executableTarget(
            name: "BoardExample",
            dependencies: [
                "StateHubServer", "StateHubPage", "SharedStores", "SharedDocumentSync", "StateHubJSON", "JSSources",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/Board",
            exclude: ["web-client.cjs"]
        ),
        .testTarget(
            name: "SharedStoresTests",
            dependencies: [
                "SharedStores", "SharedDocumentSync", "StateHubPage", "JSEngine", "CapabilityBridge",
                "StateHubTestSupport",  // the suites' kind tags and the shared event waiter
            ]
        ),
        .testTarget(name: "SharedDocumentTests", dependencies: [
                "SharedDocument", "StateHubTesting",
                "StateHubTestSupport",  // offThePool: a test blocks no thread of the cooperative pool
            ], exclude: ["Peers"]),
        .testTarget(name: "StateHubJSONTests", dependencies: ["StateHubTestSupport", "StateHubJSON"]),
        .testTarget(name: "JSEngineTests", dependencies: ["StateHubTestSupport", "JSEngine"]),
        .testTarget(name: "TraceTests", dependencies: ["StateHubTestSupport", "Trace"]),
        .testTarget(
            name: "StateHubTests",
            dependencies: [
                "StateHubTestSupport",  // offThePool: a test blocks no thread of the cooperative pool
                "StateHub", "JSEngine", "Trace", "JSSources", "StateHubTesting",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "StateHubTestingTests",
            dependencies: [
                "StateHubTestSupport",  // the suites' kind tags (Tags.swift)
                "StateHubTesting", "StateHub",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "CapabilityBridgeTests",
            dependencies: [
                "CapabilityBridge", "JSEngine", "Trace", "JSSources",
                "StateHubTestSupport",  // the suites' kind tags and the shared event waiter
                .product(name: "Clocks", package: "swift-clocks"),  // the native time limit on a test clock
            ]
        ),
        .testTarget(name: "StyleTokensTests", dependencies: ["StateHubTestSupport", "StyleTokens", "CapabilityBridge", "JSEngine"]),
        // Runs the built `statehub` binary (the dependency makes sure it is built first).
        .testTarget(name: "StateHubCLITests", dependencies: ["StateHubCLI", "StateHubTestSupport"]),
        // Helpers several test targets share (the `statehub serve` launcher, a fresh PostgreSQL
        // database), once; not a product.
        .target(
            name: "StateHubTestSupport",
            dependencies: [.product(name: "PostgresKit", package: "postgres-kit")],
            path: "Tests/StateHubTestSupport"
        ),
    ],
    swiftLanguageModes: [.v6]
)
