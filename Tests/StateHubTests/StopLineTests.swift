import Foundation
import JSEngine
import StateHubTestSupport
import Testing
@testable import StateHub

/// One rule for the line a stop names: the loop's own line, wherever the loop runs and
/// wherever inside it the limit lands (docs/engine.md, "Which line a stop
/// names"). A stop at the loop's head gets JavaScriptCore's line of the expression before the
/// loop; one inside a write the body makes (the store runtime, the plugin's post) gets the
/// write's line. Before, the first named the `while` and the second the body's line, so a
/// classic top level and an action named different lines for the same loop.
@Suite("Which line a stop names", .tags(.engine), stopSuiteTimeLimit)
struct StopLineTests {
    static let store = """
        const useS = defineStore('s', {
          state: () => ({ n: 0, list: [] }),
          actions: {
            spin() {
              let i = 0;
              while (true) {
                this.n = i++;
                this.list.push(i); this.list.shift();
              }
            },
            quiet() {
              let i = 0;
              for (;;) {
                i++;
              }
            },
            async waits() {
              await null;
              for (;;) {
                await null;
                this.n++;
              }
            },
          },
        });
        useS();
        """

    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func everyStopNamesTheLoopsOwnLine(flush: StoreScripts.Flush) async throws {
        let stops = StopList()
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "lines", executionTimeLimit: .milliseconds(200)))
        engine.onStop { stop in stops.append(stop) }
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.store, sourceURL: "store.js")

        // Actions: a body writing state, a body calling nothing, an `await` loop.
        for (action, line) in [("spin", 6), ("quiet", 13), ("waits", 19)] {
            await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "s", action: action) }
            let stop = try #require(await stops.next(), "\(action) was not stopped")
            // Under tick flush the `await` loop's native calls are the plugin's flush, in a
            // microtask of its own, and the flush's scheduling inside the page's write: a stop
            // found at the flush is put off to the scheduling, where the page's frame is in sight
            // (blamed at the flush, it would name the plugin's file about one run in ten).
            #expect(stop.sourceURL == "store.js" && stop.line == line, "\(action): \(stop)")
        }
        // A classic top level writing state, and one calling nothing.
        let top = "let i = 0;\nconst s = useS();\nwhile (true) {\n  s.n = i++;\n}\n"
        await #expect(throws: EngineError.self) { try await engine.execute(top, sourceURL: "top.js") }
        #expect(await stops.next().map { "\($0.place)" } == "top.js:3")
        await #expect(throws: EngineError.self) { try await engine.execute("let j = 0;\nj++;\nwhile (true) {\n  j++;\n}\n", sourceURL: "plain.js") }
        #expect(await stops.next().map { "\($0.place)" } == "plain.js:3")
        // A timer callback writing state.
        try await engine.execute("setTimeout(() => {\n  let k = 0;\n  do {\n    useS().n = k++;\n  } while (true);\n}, 0);\n", sourceURL: "timer.js")
        #expect(await stops.next().map { "\($0.place)" } == "timer.js:3")
        // Still usable, the mirror equal.
        try await engine.execute("useS().n = 7")
        #expect(await mirror(of: hub, "s") { $0?["n"] == 7 })
        await engine.close()
    }
}

/// Stops as the engine reports them, read in order.
private final class StopList: Sendable {
    private let (stops, arrived) = AsyncStream<ScriptStop>.makeStream()

    func append(_ stop: ScriptStop) { arrived.yield(stop) }

    /// The next stop not read yet, as soon as the engine reports it.
    func next(sourceLocation: SourceLocation = #_sourceLocation) async -> ScriptStop? {
        await waitFor("the engine's next stop", in: stops, sourceLocation: sourceLocation)
    }
}
