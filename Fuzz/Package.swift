// swift-tools-version: 6.0
// Coverage-guided fuzz targets (libFuzzer) for what pages and files feed StateHub. Not part of
// the normal build: scripts/fuzz.sh builds this package with `-sanitize=fuzzer` and runs each
// target on its seed corpus (Fuzz/Corpus/<target>). See docs/reliability.md.
import PackageDescription

// The targets link libFuzzer's runtime and call its driver from their own `main`
// (FuzzSupport); the core is instrumented for coverage by the flags scripts/fuzz.sh passes to
// the whole build (`-sanitize=address -sanitize-coverage=…`): `-sanitize=fuzzer` everywhere
// would make the core's build-tool executable link libFuzzer's `main` too, and fail.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])]
// `--gc-sections`: libFuzzer's own `main` (never the entry, see FuzzSupport) calls
// `LLVMFuzzerTestOneInput`, which no target defines; a release link drops that dead section,
// and a debug link (scripts/fuzz.sh's default) must be told to.
let fuzzerLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-Xlinker", "--gc-sections"])]

let package = Package(
    name: "StateHubFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "StateHub", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzStoreMessages", dependencies: [
            "FuzzSupport", .product(name: "StateHub", package: "StateHub"), .product(name: "JSEngine", package: "StateHub"),
            .product(name: "Trace", package: "StateHub"),
        ], swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(name: "FuzzTraceReader", dependencies: ["FuzzSupport", .product(name: "Trace", package: "StateHub")], swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(name: "FuzzThemeReader", dependencies: ["FuzzSupport", .product(name: "StyleTokens", package: "StateHub")], swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(name: "FuzzLegacyURL", dependencies: ["FuzzSupport", .product(name: "CapabilityBridge", package: "StateHub")], swiftSettings: fuzzer, linkerSettings: fuzzerLink),
        .executableTarget(name: "FuzzSharedDocument", dependencies: ["FuzzSupport", .product(name: "SharedDocument", package: "StateHub")], swiftSettings: fuzzer, linkerSettings: fuzzerLink),
    ],
    swiftLanguageModes: [.v6]
)
