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
        .executable(name: "statehub", targets: ["StateHubCLI"]),
        // crdt: Yjs-compatible shared documents
        .library(name: "SharedDocument", targets: ["SharedDocument"]),
        // cli engineer: one-call page set-up (issue 12)
        .library(name: "StateHubPage", targets: ["StateHubPage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
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
        .target(
            name: "JSEngine",
            dependencies: [
                "StateHubJSON",
                .target(name: "CJSCore", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // Every file under js/ as Swift string constants, generated at build time.
        .executableTarget(name: "EmbedJSTool"),
        .plugin(name: "EmbedJS", capability: .buildTool(), dependencies: ["EmbedJSTool"]),
        .target(name: "JSSources", plugins: ["EmbedJS"]),
        .target(name: "Trace"),
        .target(name: "StateHub", dependencies: ["JSEngine", "Trace", "JSSources"]),
        .target(name: "CapabilityBridge", dependencies: ["JSEngine", "Trace", "JSSources"]),
        .target(
            name: "StyleTokens",
            dependencies: [
                "StateHubJSON", "JSEngine", "CapabilityBridge",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // cli engineer: one-call page set-up (issue 12)
        .target(
            name: "StateHubPage",
            dependencies: [
                "StateHub", "CapabilityBridge", "JSEngine", "Trace",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "StateHubPageTests", dependencies: ["StateHubPage", "StateHub", "JSEngine", "Trace"]),
        .executableTarget(
            name: "StateHubCLI",
            dependencies: [
                "StateHub", "CapabilityBridge", "StyleTokens", "JSEngine", "Trace", "JSSources", "StateHubPage",
                "SharedDocument", // crdt
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // crdt: a pure-Swift Yjs document model and update format (no engine).
        .target(name: "SharedDocument"),
        .testTarget(name: "SharedDocumentTests", dependencies: ["SharedDocument"], exclude: ["Peers"]),
        .testTarget(name: "StateHubJSONTests", dependencies: ["StateHubJSON"]),
        .testTarget(name: "JSEngineTests", dependencies: ["JSEngine"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace"]),
        .testTarget(name: "StateHubTests", dependencies: ["StateHub", "JSEngine", "Trace", "JSSources"]),
        .testTarget(name: "CapabilityBridgeTests", dependencies: ["CapabilityBridge", "JSEngine", "Trace", "JSSources"]),
        .testTarget(name: "StyleTokensTests", dependencies: ["StyleTokens", "CapabilityBridge", "JSEngine"]),
        // Runs the built `statehub` binary (the dependency makes sure it is built first).
        .testTarget(name: "StateHubCLITests", dependencies: ["StateHubCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
