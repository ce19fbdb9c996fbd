import Foundation
import JSEngine
import JSSources
import StateHubTestSupport
import Testing

/// js/ as the npm-style package `@statehub/pinia-sync`: a Vite-style ES-module app that imports
/// it is bundled by Debian's esbuild and runs in the engine; the classic build runs too.
/// Needs `esbuild` (scripts/ensure-deps.sh installs it): the test fails when it is missing.
@Suite("The js/ package, bundled", .tags(.integration))
struct JSPackageTests {
    /// A temporary project: the package under node_modules, shims mapping `pinia` and `vue` to
    /// the runtime's globals, and a small app of two modules.
    func makeProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-package-\(UUID().uuidString)")
        let package = root.appendingPathComponent("node_modules/@statehub/pinia-sync")
        for file in ["package.json", "index.mjs", "index.d.ts", "build-classic.sh", "plugin/sync-plugin.js", "plugin/chunking.js", "bridge/bridge-client.js"] {
            let text = try #require(JSSources.files[file], "js/\(file) is embedded")
            let url = package.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let sources: [String: String] = [
            "pinia-shim.mjs": "export const { createPinia, setActivePinia, defineStore, storeToRefs } = globalThis.StateHubPinia;\n",
            "vue-shim.mjs": "export const { ref, computed, reactive } = globalThis.StateHubReactivity;\n",
            "src/stores/counter.mjs": """
                import { defineStore } from 'pinia'
                import { ref, computed, reactive } from 'vue'
                export const useCounter = defineStore('counter', () => {
                  const n = ref(0)
                  const tags = reactive(new Map())
                  const double = computed(() => n.value * 2)
                  function increment() { n.value++; tags.set('last', n.value) }
                  return { n, tags, double, increment }
                })
                """,
            "src/main.mjs": """
                import { createPinia, setActivePinia } from 'pinia'
                import createSyncPlugin, { flushPending, invokeNative, PROTOCOL_VERSION } from '@statehub/pinia-sync'
                import { useCounter } from './stores/counter.mjs'
                const sent = []
                const pinia = createPinia()
                pinia.use(createSyncPlugin({ flush: 'sync', post: (text) => sent.push(JSON.parse(text)) }))
                setActivePinia(pinia)
                const counter = useCounter()
                counter.increment()
                flushPending()
                globalThis.appResult = { sent, n: counter.n, double: counter.double, version: PROTOCOL_VERSION, bridge: typeof invokeNative }
                """,
        ]
        for (path, text) in sources {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// Runs a command in `directory`; returns its exit status and stderr.
    func run(_ arguments: [String], in directory: URL) async throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = await errors.fileHandleForReading.readToEndOffThePool()
        await process.exitedOffThePool()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func engineWithRuntime() async throws -> JavaScriptEngine {
        let engine = try JavaScriptEngine(configuration: .init(name: "package"))
        for script in ["runtime/reactivity.js", "runtime/pinia.js"] {
            try await engine.evaluate(try #require(JSSources.files[script]), sourceURL: script)
        }
        return engine
    }

    @Test func anESModuleAppImportingThePackageRunsInTheEngine() async throws {
        let project = try makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let bundled = try await run(["esbuild", "src/main.mjs", "--bundle", "--format=iife", "--outfile=out.js", "--log-level=warning",
                               "--alias:pinia=./pinia-shim.mjs", "--alias:vue=./vue-shim.mjs"], in: project)
        #expect(bundled.status == 0, "esbuild failed (is it installed?): \(bundled.errors)")
        let bundle = try String(contentsOf: project.appendingPathComponent("out.js"), encoding: .utf8)

        let engine = try await engineWithRuntime()
        try await engine.evaluate(bundle, sourceURL: "out.js")
        let result = try await engine.evaluate("globalThis.appResult")
        #expect(result["n"]?.intValue == 1)
        #expect(result["double"]?.intValue == 2)
        #expect(result["version"]?.intValue == 1)
        #expect(result["bridge"]?.stringValue == "function")
        let sent = try #require(result["sent"]?.arrayValue)
        #expect(sent.first?["type"]?.stringValue == "sync_state")
        #expect(sent.first?["payload"]?["state"]?["tags"]?["$type"]?.stringValue == "Map")
        let mutations = sent.dropFirst().compactMap { $0["payload"]?["mutations"]?[0] }
        #expect(mutations.map { $0["action"]?.stringValue } == ["increment", "increment"])
        // the Map changed in place is an entry op on its tagged value's entries (PROTOCOL.md A.3.1)
        #expect(mutations.last?["ops"]?[0]?["path"]?[0] == "tags")
        #expect(mutations.last?["ops"]?[0]?["path"]?[1] == "entries")
    }

    @Test func theClassicBuildRunsInTheEngine() async throws {
        let project = try makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let package = project.appendingPathComponent("node_modules/@statehub/pinia-sync")
        let built = try await run(["sh", "build-classic.sh", "classic.js"], in: package)
        #expect(built.status == 0, "build-classic.sh failed: \(built.errors)")
        let classic = try String(contentsOf: package.appendingPathComponent("classic.js"), encoding: .utf8)

        let engine = try await engineWithRuntime()
        try await engine.evaluate(classic, sourceURL: "classic.js")
        let result = try await engine.evaluate("""
            (() => {
              const sent = []
              const pinia = createPinia()
              pinia.use(StateHubPiniaSync.createSyncPlugin({ flush: 'sync', post: (text) => sent.push(JSON.parse(text)) }))
              const store = defineStore('classic', { state: () => ({ n: 0 }), actions: { add() { this.n++ } } })(pinia)
              store.add()
              return { types: sent.map((m) => m.type), exported: Object.keys(StateHubPiniaSync).includes('invokeNative') }
            })()
            """)
        #expect(result["types"] == .array([.string("sync_state"), .string("apply_mutation")]))
        #expect(result["exported"] == .bool(true))
    }
}
