import JSEngine
import JSSources
import Testing
@testable import StateHub

/// The JavaScript suites of js/tests, run inside the real engine: the runtime's Pinia API,
/// the sync plugin's encoding and protocol, the bridge client.
@Suite("JavaScript self-tests in the engine", .tags(.engine))
struct JSSelfTests {
    /// Loads `scripts`, runs `file` until its promise settles and timers are idle, and reads
    /// the `{ passed, failed, failures }` object it leaves in `resultGlobal`.
    func run(_ file: String, loading scripts: [String], resultGlobal: String) async throws -> (passed: Int, failed: Int, failures: String) {
        let engine = try JavaScriptEngine(configuration: .init(name: "selftest"))
        for script in scripts {
            try await engine.evaluate(try #require(JSSources.files[script]), sourceURL: script)
        }
        _ = try? await engine.evaluateAndAwait(try #require(JSSources.files[file]), sourceURL: file, timeout: .seconds(120))
        try await engine.waitUntilIdle(timeout: .seconds(60))
        let result = try await engine.evaluate("globalThis.\(resultGlobal)")
        return (result["passed"]?.intValue ?? 0, result["failed"]?.intValue ?? -1, (result["failures"] ?? .null).jsonText())
    }

    @Test func runtimeSelfTest() async throws {
        let counts = try await run("tests/runtime.selftest.js", loading: ["runtime/reactivity.js", "runtime/pinia.js"], resultGlobal: "__stateHubRuntimeSelftest")
        #expect(counts.failed == 0, "\(counts.failures)")
        #expect(counts.passed > 20)
    }

    @Test func pluginSelfTest() async throws {
        let counts = try await run("tests/plugin.selftest.js", loading: ["runtime/reactivity.js", "runtime/pinia.js", "plugin/sync-plugin.js"], resultGlobal: "pluginSelftestResult")
        #expect(counts.failed == 0, "\(counts.failures)")
        #expect(counts.passed > 100)
    }

    /// Every spec file under js/tests/spec (Vue's and Pinia's specified behaviour, our tests),
    /// each in a fresh engine with the runtime and js/tests/harness.js loaded.
    static let specFiles = JSSources.files.keys.filter { $0.hasPrefix("tests/spec/") && $0.hasSuffix(".spec.js") }.sorted()

    @Test(arguments: specFiles)
    func runtimeSpec(_ file: String) async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "spec"))
        for script in ["runtime/reactivity.js", "runtime/pinia.js", "tests/harness.js", file] {
            try await engine.evaluate(try #require(JSSources.files[script]), sourceURL: script)
        }
        _ = try await engine.evaluateAndAwait("StateHubSpec.run()", sourceURL: "run-\(file)", timeout: .seconds(120))
        try await engine.waitUntilIdle(timeout: .seconds(60))
        let result = try await engine.evaluate("globalThis.__stateHubSpecResult")
        let failed = result["failed"]?.intValue ?? -1
        #expect(result["done"]?.boolValue == true, "\(file) did not finish")
        #expect(failed == 0, "\((result["failures"] ?? .null).jsonText())")
        #expect((result["passed"]?.intValue ?? 0) > 0)
    }

    @Test func specFilesArePresent() {
        #expect(Self.specFiles.count >= 1)
    }

    @Test func bridgeClientSelfTest() async throws {
        let counts = try await run("tests/bridge.selftest.js", loading: ["bridge/bridge-client.js"], resultGlobal: "bridgeSelftestResult")
        #expect(counts.failed == 0, "\(counts.failures)")
        #expect(counts.passed > 50)
    }
}
