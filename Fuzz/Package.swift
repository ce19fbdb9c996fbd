// swift-tools-version: 6.0
// Coverage-guided fuzz targets (libFuzzer) for what pages and files feed StateHub. Not part of
// the normal build: scripts/fuzz.sh builds this package with `-sanitize=fuzzer` and runs each
// target on its seed corpus (Fuzz/Corpus/<target>). See docs/reliability.md.
import PackageDescription

let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "StateHubFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "StateHub", path: "..")],
    targets: [
        .executableTarget(name: "FuzzStoreMessages", dependencies: [
            .product(name: "StateHub", package: "StateHub"), .product(name: "JSEngine", package: "StateHub"),
            .product(name: "Trace", package: "StateHub"),
        ], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzTraceReader", dependencies: [.product(name: "Trace", package: "StateHub")], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzThemeReader", dependencies: [.product(name: "StyleTokens", package: "StateHub")], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzLegacyURL", dependencies: [.product(name: "CapabilityBridge", package: "StateHub")], swiftSettings: fuzzer),
    ],
    swiftLanguageModes: [.v6]
)
