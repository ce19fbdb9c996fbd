import Foundation
import JSEngine
import Testing
import Trace
@testable import StateHub

/// A dispatch fails with `writesDiscarded` only when writes of *that* dispatch were dropped.
/// After a stop the hub asks for a resync and drops the stopped action's late batches; the
/// flag those drops set must not be charged to whatever `action_result` comes next, or a later
/// read-only dispatch fails with "its writes were discarded".
@Suite("Discarded writes belong to their dispatch", .tags(.engine), stopSuiteTimeLimit)
struct WriteDiscardedTests {
    static let stores = """
        const useS = defineStore('s', {
          state: () => ({ n: 0, list: [], tags: new Set() }),
          actions: {
            spin() { let i = 0; while (true) { this.n++; this.list.push(i++); if (this.list.length > 30) this.list.shift(); this.tags.add(i % 40) } },
            ok() { return this.n >= 0 },
            inc() { this.n += 1; return this.n },
          },
        });
        const useT = defineStore('t', {
          state: () => ({ k: 0 }),
          actions: { spin() { while (true) { this.k++; useS().n++ } }, ok() { return 'fine' } },
        });
        useS(); useT();
        """

    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aReadOnlyDispatchAfterAStopSucceeds(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "discard", executionTimeLimit: .milliseconds(200)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.stores, sourceURL: "stores.js")
        for round in 1...4 {
            for store in ["s", "t"] {
                await #expect(throws: StateHubError.self, "round \(round): \(store).spin was not stopped") {
                    try await hub.dispatch(store: store, action: "spin")
                }
                // Read-only dispatches right after the stop, before and after the resync lands.
                for reader in ["s", "t", "s"] {
                    do {
                        _ = try await hub.dispatch(store: reader, action: "ok")
                    } catch {
                        Issue.record("round \(round), after \(store).spin: \(reader).ok failed: \(error)")
                    }
                }
            }
            let n = try await hub.dispatch(store: "s", action: "inc")
            let engineSide = try await engineState(engine, "s")
            #expect(engineSide["n"] == n, "round \(round)")
            #expect(await mirror(of: hub, "s") { $0 == engineSide }, "round \(round): the mirror differs from $state")
        }
        await engine.close()
    }
}
