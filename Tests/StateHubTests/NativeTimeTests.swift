import Foundation
import JSEngine
import Synchronization
import Testing
import Trace
@testable import StateHub

/// Native work is not the page's: the hub applies, records and
/// redacts a message on the engine thread inside `postMessage`, and that time is left out of
/// the page's limit (docs/engine.md, "Native time is not the page's"). Counted against it, a
/// single large write (no loop) would be stopped inside the plugin (`chunking.js`, reported as
/// "microtasks that keep queueing microtasks" and unresponsive), and a trace recorder would turn
/// a 4 MB write into a stop. A real loop is still stopped, and so is a loop whose every write
/// costs the hub far more than the page.
@Suite("Native time is not charged to the page", .tags(.engine), stopSuiteTimeLimit)
struct NativeTimeTests {
    static let store = """
        const useS = defineStore('s', {
          state: () => ({ big: '', n: 0 }),
          actions: {
            w(mb) { this.big = 'x'.repeat(mb * 1024 * 1024); return this.big.length },
            inc() { this.n++; return this.n },
            spin() { while (true) { this.n++ } },
            bigLoop() { let i = 0; while (true) { this.big = 'x'.repeat(4 * 1024 * 1024) + (i++) } },
          },
        });
        useS();
        """

    struct Page {
        let hub: GlobalStateHub
        let engine: JavaScriptEngine
        let unresponsive: UnresponsiveTurns
    }

    static func page(traced: Bool, flush: StoreScripts.Flush = .tick) async throws -> Page {
        let unresponsive = UnresponsiveTurns()
        // A recorder with a redactor, as `statehub run --trace` has: both run inside the post.
        let recorder = traced ? TraceRecorder(capacity: 1_000, redactor: TraceRedactor.jsonKeys(["password", "token"])) : nil
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(
            name: "native-time", executionTimeLimit: .seconds(1),
            onUnresponsive: { _ in unresponsive.count.withLock { $0 += 1 } }))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.store, sourceURL: "big.js")
        return Page(hub: hub, engine: engine, unresponsive: unresponsive)
    }

    @Test(arguments: [(4, false), (4, true), (40, false), (40, true)])
    func aSingleLargeWriteIsNotStopped(megabytes: Int, traced: Bool) async throws {
        let page = try await Self.page(traced: traced)
        let length = try await page.hub.dispatch(store: "s", action: "w", args: [.number(Double(megabytes))])
        #expect(length == .number(Double(megabytes << 20)))
        #expect(page.hub.state(of: "s")?["big"]?.stringValue?.utf8.count == megabytes << 20)
        #expect(try await page.hub.dispatch(store: "s", action: "inc") == 1)
        #expect(page.hub.problems.isEmpty, "\(page.hub.problems)")
        #expect(page.unresponsive.count.withLock { $0 } == 0)
        await page.engine.close()
    }

    @Test func aRealLoopIsStillStopped() async throws {
        let page = try await Self.page(traced: true)
        for action in ["spin", "bigLoop"] {
            do {
                try await page.hub.dispatch(store: "s", action: action)
                Issue.record("\(action) was not stopped")
            } catch StateHubError.stopped {
            } catch {
                Issue.record("\(action) failed otherwise: \(error)")
            }
            let n = try await page.hub.dispatch(store: "s", action: "inc")
            let engineSide = try await engineState(page.engine, "s")
            #expect(engineSide["n"] == n)
            #expect(await mirror(of: page.hub, "s") { $0 == engineSide }, "after \(action): the mirror differs from $state")
        }
        #expect(page.unresponsive.count.withLock { $0 } == 0, "a stoppable loop was reported as an unresponsive turn")
        await page.engine.close()
    }
}

final class UnresponsiveTurns: Sendable {
    let count = Mutex(0)
}
