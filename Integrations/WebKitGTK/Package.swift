// swift-tools-version: 6.0
import PackageDescription

// A package of its own so that the core never needs WebKitGTK to build (docs/webview.md).
//
// The core is a dependency by relative path. SwiftPM names a path dependency after its folder, and a
// clone may sit in a folder of any name; `name: "StateHub"` gives the products one name to be found by
// whatever the folder is called (docs/webview.md, "The package").
let package = Package(
    name: "StateHubWebKitGTK",
    products: [
        .library(name: "WebKitGTKPage", targets: ["WebKitGTKPage"]),
    ],
    dependencies: [
        .package(name: "StateHub", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // WebKitGTK's C API (webkit2gtk-4.1: GTK 3, libsoup 3), through one shim header.
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        .target(
            name: "WebKitGTKPage",
            dependencies: [
                "CWebKitGTK",
                .product(name: "JSEngine", package: "StateHub"),
                .product(name: "StateHub", package: "StateHub"),
                .product(name: "CapabilityBridge", package: "StateHub"),
                .product(name: "StyleTokens", package: "StateHub"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `xvfb-run -a swift run -c debug webview-bench`: a web view against the engine page (docs/webview.md).
        .executableTarget(
            name: "webview-bench",
            dependencies: [
                "WebKitGTKPage",
                .product(name: "StateHub", package: "StateHub"),
                .product(name: "StateHubPage", package: "StateHub"),
                .product(name: "JSEngine", package: "StateHub"),
            ]
        ),
        .testTarget(
            name: "WebKitGTKPageTests",
            dependencies: [
                "WebKitGTKPage",
                .product(name: "StateHub", package: "StateHub"),
                .product(name: "StateHubPage", package: "StateHub"),
                .product(name: "CapabilityBridge", package: "StateHub"),
                .product(name: "StyleTokens", package: "StateHub"),
                .product(name: "JSEngine", package: "StateHub"),
                .product(name: "Trace", package: "StateHub"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
