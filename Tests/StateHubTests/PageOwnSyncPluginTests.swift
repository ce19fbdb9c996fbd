import JSEngine
import JSSources
import Testing
import Trace
@testable import StateHub

/// A page that ships its own copy of js/plugin/sync-plugin.js (as docs tell a WKWebView page to),
/// run in an engine that loaded StateHub's copy first (as `statehub run` does): every store is
/// mirrored once, with one sequence per store, and the hub sees no gap and asks no resync.
@Suite("A page's own copy of the sync plugin", .tags(.engine))
struct PageOwnSyncPluginTests {
    static let pluginSource = JSSources.files["plugin/sync-plugin.js"] ?? ""

    /// Loads `copy` as the page's own plugin between a store made before it and one made after,
    /// the page then doing what its docs say: `pinia.use(StateHubSync.createSyncPlugin())`.
    func pageWithItsOwnCopy(_ copy: String) async throws -> (GlobalStateHub, TraceRecorder, JavaScriptEngine) {
        #expect(!copy.isEmpty, "StateHub was built without js/plugin/sync-plugin.js")
        let recorder = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(trace: recorder))
        let page = try await makePage(hub, name: "own-copy")
        try await page.execute("globalThis.useEarly = defineStore('early', { state: () => ({ n: 0 }) }); useEarly();")
        try await page.execute(copy, sourceURL: "page/sync-plugin.js")
        try await page.execute("""
            getActivePinia().use(StateHubSync.createSyncPlugin());
            globalThis.useOwn = defineStore('own', { state: () => ({ n: 0 }), actions: { add() { this.n++; return this.n } } });
            useOwn().n++; useEarly().n++;
            """)
        try await page.execute("useOwn().n++; useEarly().n++")
        return (hub, recorder, page)
    }

    func expectMirroredOnce(_ hub: GlobalStateHub, _ recorder: TraceRecorder, sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(await mirror(of: hub, "own") { $0 == ["n": 2] }, "mirror of own never became n = 2", sourceLocation: sourceLocation)
        #expect(await mirror(of: hub, "early") { $0 == ["n": 2] }, "mirror of early never became n = 2", sourceLocation: sourceLocation)
        let fromPage = recorder.records.filter { $0.direction == .webToNative }
        for store in ["own", "early"] {
            let messages = fromPage.filter { $0.store == store }
            #expect(messages.filter { $0.type == "sync_state" }.count == 1, "\(store): \(messages.map(\.type))", sourceLocation: sourceLocation)
            let seqs = messages.compactMap(\.seq)
            #expect(seqs == Array(1...max(1, seqs.count)), "\(store): seqs \(seqs)", sourceLocation: sourceLocation)
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)", sourceLocation: sourceLocation)
    }

    @Test func aSecondCopyJoinsTheFirstRegistry() async throws {
        let (hub, recorder, page) = try await pageWithItsOwnCopy(Self.pluginSource)
        await expectMirroredOnce(hub, recorder)
        // native's messages still reach the stores through the one registry
        #expect(try await hub.dispatch(store: "own", action: "add") == 3)
        #expect(await mirror(of: hub, "own") { $0 == ["n": 3] }, "mirror of own never became n = 3")
        withExtendedLifetime(page) {}
    }

    @Test func aCopyOfAnotherProtocolVersionIsRefused() async throws {
        let other = Self.pluginSource.replacingOccurrences(of: "const PROTOCOL_VERSION = 1;", with: "const PROTOCOL_VERSION = 2;")
        #expect(other != Self.pluginSource, "the plugin no longer declares PROTOCOL_VERSION as this test expects")
        let (hub, recorder, page) = try await pageWithItsOwnCopy(other)
        await expectMirroredOnce(hub, recorder)
        #expect(try await page.evaluate("StateHubSync.version") == 1)
    }
}
