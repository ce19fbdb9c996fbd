import Foundation
import JSEngine
import Synchronization
import Testing
import Trace
@testable import StateHub

/// The tick-flush misdiagnosis, second shape:
/// `this.tags.add(Math.random()); if (this.tags.size > 1000) this.tags.clear()` in a loop is
/// stopped as an action, not reported `unresponsive` with later dispatches skipped. Inserts
/// joined into one splice grow the batch without adding ops, so counting ops alone, the
/// 1,024-op early post would never come: one message of many MB, cut into chunks. The batch
/// also counts the items its inserts carry (PROTOCOL.md A.5.2), native time is not the page's,
/// and a dispatch whose page is still running a script is waited for (the CLI's wait, limit +
/// 5 s, would otherwise expire first).
@Suite("A Set filled and cleared in a loop is stopped as an action", .tags(.engine), stopSuiteTimeLimit)
struct SetLoopStopTests {
    static let store = """
        const useS = defineStore('s', {
          state: () => ({ n: 0, tags: new Set() }),
          actions: {
            tagLoop() {
              while (true) {
                this.tags.add(Math.random()); if (this.tags.size > 1000) this.tags.clear()
              }
            },
            inc() { this.n++; return this.n },
          },
        });
        useS();
        """

    @Test func theLoopIsStoppedAtItsLineAndLaterDispatchesRun() async throws {
        let unresponsive = UnresponsiveTurns()
        let recorder = TraceRecorder(capacity: 100_000)
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(
            name: "setloop", executionTimeLimit: .seconds(1),
            onUnresponsive: { _ in unresponsive.count.withLock { $0 += 1 } }))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: .tick)
        try await engine.execute(Self.store, sourceURL: "tags.js")
        for round in 1...3 {
            do {
                try await hub.dispatch(store: "s", action: "tagLoop")
                Issue.record("round \(round): tagLoop was not stopped")
            } catch StateHubError.stopped(_, _, _, let reason) {
                #expect(reason.contains("tags.js:5"), "round \(round): \(reason)")
            } catch {
                Issue.record("round \(round): tagLoop failed otherwise: \(error)")
            }
            let n = try await hub.dispatch(store: "s", action: "inc")
            let engineSide = try await engineState(engine, "s")
            #expect(engineSide["n"] == n, "round \(round)")
            #expect(await mirror(of: hub, "s") { $0 == engineSide }, "round \(round): the mirror differs from $state")
        }
        #expect(unresponsive.count.withLock { $0 } == 0, "a stoppable loop was reported as an unresponsive turn")
        let fromPage = recorder.records.filter { $0.direction == .webToNative }
        #expect(!fromPage.contains { $0.type == "oversize" || $0.type == "chunk" }, "a batch over the message cap")
        let largest = fromPage.filter { $0.type == "apply_mutation" }.map(\.size).max() ?? 0
        #expect(largest < 200_000, "one apply_mutation of \(largest) bytes")
        await engine.close()
    }
}
