import JSEngine
import Testing
import Trace
@testable import StateHub

/// Replacing a page's store code while its stores keep their state and their mirror.
@Suite("Hot swap", .tags(.engine))
struct HotSwapTests {
    // bundles are IIFEs, as esbuild writes them: top-level `const`s of two versions would clash
    static let version1 = """
        (() => {
        const useCounter = defineStore('counter', {
          state: () => ({ n: 0, legacy: true, nested: { a: 1 } }),
          getters: { double: (state) => state.n * 2 },
          actions: { add(by) { this.n += by } }
        })
        useCounter()
        })()
        """
    static let version2 = """
        (() => {
        const useCounter = defineStore('counter', {
          state: () => ({ n: 0, nested: { a: 0, b: 2 }, added: 'new' }),
          getters: { triple: (state) => state.n * 3 },
          actions: { add(by) { this.n += by * 10 }, reset() { this.n = 0 } }
        })
        useCounter()
        })()
        """

    @Test func keepsStateAndMirrorAndRecordsTheSwap() async throws {
        let trace = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(trace: trace))
        let engine = try await makePage(hub, name: "swap")
        try await engine.execute(Self.version1, sourceURL: "counter-v1.js")
        try await hub.dispatch(store: "counter", action: "add", args: [2])
        #expect(hub.state(of: "counter") == ["n": 2, "legacy": true, "nested": ["a": 1]])
        let versionBefore = hub.version(of: "counter")

        let swapped = try await engine.hotSwap(Self.version2, sourceURL: "counter-v2.js", trace: trace)
        #expect(swapped == ["counter"])
        #expect(await mirror(of: hub, "counter", becomes: { $0 == ["n": 2, "nested": ["a": 1, "b": 2], "added": "new"] }))
        #expect(try await engineState(engine, "counter") == hub.state(of: "counter"))
        // one change, not a rebuild: the store was never disposed and re-created
        #expect(!trace.records.contains { $0.type == "store_disposed" })
        // created once; the getter `double` the update removed is dropped from native by a resync (A.13)
        let reasons = trace.records.filter { $0.type == "sync_state" }.map { (try? JSONValue(parsing: $0.message))?["payload"]?["reason"] }
        #expect(reasons == ["created", "resync"])
        #expect(hub.getters(of: "counter") == ["triple": 6])
        #expect((hub.version(of: "counter") ?? 0) > (versionBefore ?? 0))

        try await hub.dispatch(store: "counter", action: "add", args: [1])
        #expect(hub.state(of: "counter")?["n"] == 12)
        #expect(try await engine.evaluate("getActivePinia()._s.get('counter').triple") == 36)
        try await hub.dispatch(store: "counter", action: "reset")
        #expect(hub.state(of: "counter")?["n"] == 0)

        let record = try #require(trace.records.first { $0.type == "hot_swap" })
        #expect(record.channel == "page")
        #expect(record.engine == "swap")
        let message = try JSONValue(parsing: record.message)
        #expect(message["stores"] == ["counter"])
        #expect(message["sourceURL"] == "counter-v2.js")
    }

    @Test func aFailingBundleIsReportedAndLeavesThePageUsable() async throws {
        let trace = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(trace: trace))
        let engine = try await makePage(hub, name: "swap-fail")
        try await engine.execute(Self.version1, sourceURL: "counter-v1.js")
        await #expect(throws: JavaScriptError.self) {
            try await engine.hotSwap("throw new Error('broken build')", sourceURL: "broken.js", trace: trace)
        }
        #expect(trace.records.first { $0.type == "hot_swap" }?.note?.contains("broken build") == true)
        let swapped = try await engine.hotSwap(Self.version2, sourceURL: "counter-v2.js")
        #expect(swapped == ["counter"])
    }
}
