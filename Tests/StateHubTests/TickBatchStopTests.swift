import Foundation
import JSEngine
import Synchronization
import Testing
import Trace
@testable import StateHub

/// A synchronous action loop under the default `tick` flush is stopped as an action, not
/// reported as an unstoppable turn.
///
/// The risk: a loop writing places the plugin cannot coalesce (`set.add` + `push` +
/// `shift`, a `$patch` per turn) piles up one tick's ops without calling native code. Stopped
/// by JavaScriptCore, it would leave the plugin to flush them as one message of 100,000s of
/// ops, and the hub, applying it on the engine thread inside `postMessage`, would hold that
/// thread for seconds: the unresponsive watch would report an unstoppable turn (`statehub run`
/// ending the run, later dispatches skipped), with memory growing with the limit. The plugin
/// sends a tick's batch early at 1,024 ops (PROTOCOL.md A.5.2), which also calls native code,
/// where the turn check stops the loop. Without that early batch every loop below fails: the
/// watch fires for each, and the largest message holds 30,000–100,000 ops.
@Suite("Tick-flush loops are stopped, not reported unresponsive", .tags(.engine), stopSuiteTimeLimit)
struct TickBatchStopTests {
    static let store = """
        const useM = defineStore('m', {
          state: () => ({ n: 0, map: new Map(), set: new Set(), list: [] }),
          actions: {
            spinSet() { let i = 0; while (true) { this.set.add(i++ % 30); this.list.push(i); if (this.list.length > 20) this.list.shift() } },
            spinPatch() { let i = 0; while (true) { this.$patch({ n: i++ }) } },
            spinMap() { let i = 0; while (true) { this.map.set('k' + (i++ % 50), i); this.list.push(i); this.list.shift() } },
            inc() { this.n++; this.map.set('after', this.n); this.set.add('after'); return this.n },
          },
        });
        useM();
        """

    @Test(arguments: ["spinSet", "spinPatch", "spinMap"])
    func aLoopIsStoppedAndTheNextDispatchReachesTheMirror(loop: String) async throws {
        let unresponsive = UnresponsiveCount()
        let recorder = TraceRecorder(capacity: 100_000)
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(
            name: "tickloop", executionTimeLimit: .milliseconds(250),
            onUnresponsive: { _ in unresponsive.count.withLock { $0 += 1 } }))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: .tick)
        try await engine.execute(Self.store, sourceURL: "ms.js")
        for round in 1...5 {
            do {
                try await hub.dispatch(store: "m", action: loop)
                Issue.record("round \(round): \(loop) was not stopped")
            } catch StateHubError.stopped {
            } catch {
                Issue.record("round \(round): \(loop) failed otherwise: \(error)")
            }
            let n = try await hub.dispatch(store: "m", action: "inc")
            let engineSide = try await engineState(engine, "m")
            #expect(engineSide["n"] == n, "round \(round)")
            // On a mismatch the message says what the hub saw (its problems, the last messages),
            // which is what a rare failure under load needs to be read at all.
            let same = await mirror(of: hub, "m") { $0 == engineSide }
            #expect(same, "round \(round): the mirror differs from $state: \(same ? "" : Self.diagnosis(hub: hub, recorder: recorder, engineSide: engineSide))")
        }
        #expect(unresponsive.count.withLock { $0 } == 0, "\(loop): a stoppable loop was reported as an unresponsive turn")
        // The memory bound: no message carries more than one early-sent batch, and none was
        // too large to send whole.
        let fromPage = recorder.records.filter { $0.direction == .webToNative }
        #expect(!fromPage.contains { $0.type == "oversize" || $0.type == "chunk" }, "\(loop): a batch over the message cap")
        let largest = fromPage.filter { $0.type == "apply_mutation" }
            .map { $0.message.components(separatedBy: "\"op\":").count - 1 }.max() ?? 0
        #expect(largest <= 1_024 + 8, "\(loop): one apply_mutation held \(largest) ops")
        await engine.close()
    }

    private static func diagnosis(hub: GlobalStateHub, recorder: TraceRecorder, engineSide: JSONValue) -> String {
        let messages = recorder.records.suffix(12).map { "\($0.direction) \($0.type) \($0.message.prefix(200))" }
        return "$state \(engineSide), mirror \(hub.state(of: "m").map(String.init(describing:)) ?? "none"), "
            + "problems \(hub.problems.suffix(8)), last messages:\n" + messages.joined(separator: "\n")
    }
}

private final class UnresponsiveCount: Sendable {
    let count = Mutex(0)
}
