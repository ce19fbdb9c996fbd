import Foundation
import JSEngine
import Testing
import Trace
@testable import StateHub

/// After any stop the hub ends converged, or says loudly that it is not. `this.big = 'x'.repeat(60 MB)`
/// under a 1 s limit is stopped in `chunking.js`: the transfer is abandoned, a sequence gap follows,
/// and the answer to the hub's resync request can be stopped too. A hub that did not ask again would
/// leave the mirror stale with nothing but the CLI's final comparison to tell: a stop makes the hub
/// ask again for a resync it is waiting for (a few times in a row), and past that the mirror's status
/// is `stale` with a `mirrorStale` problem (docs/hub.md, "Mirror status").
@Suite("A stop during a large write ends converged or loudly stale", .tags(.engine), stopSuiteTimeLimit)
struct StopDuringTransferTests {
    /// Every iteration posts a 12 MB string as `chunk`s (over the 8 MiB cap): the stop lands
    /// at one of them, most often in the middle of a transfer.
    static let store = """
        const useS = defineStore('s', {
          state: () => {
            const s = { big: '', n: 0 };
            // Read whenever the whole state is serialised (a resync's answer), never by a write.
            // The loop calls native code, so the turn check stops it however loaded the machine.
            Object.defineProperty(s, 'trap', { enumerable: true, get() { if (globalThis.trapOn) { while (true) { performance.now() } } return 1 } });
            return s;
          },
          actions: {
            bigLoop() { let i = 0; while (true) { this.big = 'x'.repeat(12 * 1024 * 1024) + (i++) } },
            spin() { while (true) { this.n++ } },
            inc() { this.n++; return this.n },
          },
        });
        useS();
        """

    static func page(limit: Duration, recorder: TraceRecorder? = nil) async throws -> (GlobalStateHub, JavaScriptEngine) {
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(name: "transfer", executionTimeLimit: limit))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: .sync)
        try await engine.execute(Self.store, sourceURL: "big.js")
        return (hub, engine)
    }

    @Test func aStopInTheMiddleOfATransferEndsConverged() async throws {
        let recorder = TraceRecorder(capacity: 100_000)
        let (hub, engine) = try await Self.page(limit: .seconds(1), recorder: recorder)
        for round in 1...3 {
            await #expect(throws: StateHubError.self, "round \(round): bigLoop was not stopped") {
                try await hub.dispatch(store: "s", action: "bigLoop")
            }
            let n: JSONValue
            do { n = try await hub.dispatch(store: "s", action: "inc") } catch {
                Issue.record("round \(round): inc failed: \(error); the hub's problems: \(hub.problems)")
                throw error
            }
            let engineSide = try await engineState(engine, "s")
            #expect(engineSide["n"] == n, "round \(round)")
            #expect(await mirror(of: hub, "s") { $0 == engineSide }, "round \(round): the mirror differs from $state")
            #expect(await status(of: hub, "s") { $0 == .current }, "round \(round): \(String(describing: hub.mirrorStatus(of: "s")))")
        }
        let abandoned = hub.problems.filter { "\($0)".contains("abandoned") }.count
        print("stop during transfer: \(abandoned) of 3 stops abandoned a transfer")
        #expect(!hub.problems.contains { if case .mirrorStale = $0.kind { true } else { false } })
        await engine.close()
    }

    /// A state whose serialisation the limit always stops: every resync answer is cut short.
    /// The hub asks again a few times, then reports the mirror stale (a problem and the
    /// status), and a later whole state brings it back.
    @Test func resyncAnswersThatAreAlwaysStoppedMakeTheMirrorStaleLoudly() async throws {
        let (hub, engine) = try await Self.page(limit: .milliseconds(200))
        #expect(hub.mirrorStatus(of: "s") == .current)
        try await engine.execute("globalThis.trapOn = true")
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "s", action: "spin") }
        #expect(await status(of: hub, "s") { if case .stale = $0 { true } else { false } },
                "the mirror is behind the page, and the hub did not say so: \(String(describing: hub.mirrorStatus(of: "s")))")
        let stale = hub.problems.filter { if case .mirrorStale = $0.kind { true } else { false } }
        #expect(stale.count == 1, "\(hub.problems)")
        #expect(stale.first?.storeId == "s")
        // The page can answer again: asked, it brings the mirror back.
        try await engine.execute("globalThis.trapOn = false")
        hub.requestSync(store: "s")
        #expect(await status(of: hub, "s") { $0 == .current })
        let engineSide = try await engineState(engine, "s")
        #expect(await mirror(of: hub, "s") { $0 == engineSide })
        await engine.close()
    }
}
