import Foundation
import JSEngine
import Testing
import Trace
@testable import StateHub

/// After a time-limit stop, the page's runtime and sync plugin are put back into a clean state
/// before it runs anything else (docs/engine.md, "Recovery after a stop"). JavaScriptCore's
/// termination skips `finally` blocks, so without it a stop inside a write left the write depth
/// above 0 and every later change was held, never reaching the mirror (found by a new user:
/// `spin()` stopped, then `inc(1)` sent no `apply_mutation`). Each action below is stopped
/// wherever the limit lands in its loop, several times in the same page, and the dispatch that
/// follows must reach the mirror whole.
@Suite("Recovery after a stop", .tags(.engine), stopSuiteTimeLimit)
struct StopRecoveryTests {
    static let store = """
        const useS = defineStore('s', {
          state: () => ({ n: 0, watched: 0, echo: 0, later: 0, list: [], m: new Map([['k', 1]]), tags: new Set(['a']),
                          nested: { deep: { v: 0 } } }),
          actions: {
            loopWrites() { let i = 0; while (true) { this.n++; this.nested.deep.v = i++ } },
            mapWrites() {
              let i = 0;
              while (true) { this.m.set('k' + (i % 7), i); if (i % 3 === 0) this.m.delete('k' + ((i + 2) % 7)); i++ }
            },
            setWrites() { let i = 0; while (true) { this.tags.add('t' + (i % 5)); this.tags.delete('t' + ((i + 3) % 5)); i++ } },
            arrayWrites() {
              let i = 0;
              while (true) { this.list.push(i++); if (this.list.length > 9) this.list.splice(1, 4); this.list[0] = i }
            },
            patchLoop() {
              let i = 0;
              while (true) {
                this.$patch((s) => { s.n++; s.list.push(i++); if (s.list.length > 9) s.list.splice(0, 5) });
                this.$patch({ nested: { deep: { v: i } } });
              }
            },
            nestedLoop() { while (true) this.step() },
            step() { this.n++; this.m.set('n', this.n) },
            watchedLoop() { while (true) this.watched++ },
            inc() {
              this.n += 1; this.watched += 1; this.list.push('i' + this.n); this.m.set('inc', this.n); this.tags.add('inc' + this.n);
              this.nested.deep.v = -this.n;
              return this.n;
            },
          },
        });
        const s = useS();
        // A sync watcher runs inside the write that triggers it (a stop can land in it); a
        // pre-flush one is a queued job (a stop drops the microtask that runs the queue).
        watch(() => s.watched, (value) => { s.echo = value * 2; s.m.set('echo', value) }, { flush: 'sync' });
        watch(() => s.watched, (value) => { s.later = value });
        """

    static let loops = ["loopWrites", "mapWrites", "setWrites", "arrayWrites", "patchLoop", "nestedLoop", "watchedLoop"]

    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func theDispatchAfterAStopReachesTheMirror(flush: StoreScripts.Flush) async throws {
        let recorder = TraceRecorder(capacity: 50_000)
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(name: "recovery", executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.store, sourceURL: "store.js")
        for round in 1...3 {
            for loop in Self.loops {
                do {
                    try await hub.dispatch(store: "s", action: loop)
                    Issue.record("\(loop) was not stopped")
                } catch StateHubError.stopped {
                } catch {
                    Issue.record("\(loop): \(error)")
                }
                let n = try await hub.dispatch(store: "s", action: "inc")
                let engineSide = try await engineState(engine, "s")
                #expect(engineSide["n"] == n, "round \(round), after \(loop)")
                #expect(await mirror(of: hub, "s") { $0 == engineSide }, "round \(round), after \(loop): the mirror differs from $state")
                // The watchers still run: the sync one inside the write, the pre-flush one in the next tick.
                let watched = engineSide["watched"]?.numberValue ?? -1
                #expect(engineSide["echo"]?.numberValue == watched * 2, "round \(round), after \(loop)")
                #expect(try await engine.evaluate("useS().later") == engineSide["watched"], "round \(round), after \(loop)")
            }
        }
        // A write outside any action after the stops is not tagged with a stopped call.
        try await engine.execute("useS().n = -1")
        #expect(await mirror(of: hub, "s") { $0?["n"] == -1 })
        let last = recorder.records.last { $0.type == "apply_mutation" && $0.message.contains("\"value\":-1") }
        #expect(last.map { !$0.message.contains("\"action\"") } == true, "\(last?.message ?? "no apply_mutation")")
        await engine.close()
    }

    /// A timer that wrote and was then stopped leaves no gap in the page's sequence: a stop
    /// while a message is built or posted must not spend its number on a message that never
    /// leaves, or the hub records a sequence gap after every such timer.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aStoppedTimerThatWroteLeavesNoSequenceGap(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "gap", executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute("""
            const useS = defineStore('s', {
              state: () => ({ n: 0, cbs: 0 }),
              actions: {
                inc() { this.n++; return this.n },
                timers(k) { for (let i = 0; i < k; i++) setTimeout(() => { this.cbs++; for (;;) { performance.now() } }, 5 * i) },
                wait(ms) { return new Promise((resolve) => setTimeout(resolve, ms)) },
              },
            });
            useS();
            """, sourceURL: "gap.js")
        _ = try await hub.dispatch(store: "s", action: "timers", args: [4])
        // An action pending across the stops (its reply comes after them).
        _ = try await hub.dispatch(store: "s", action: "wait", args: [1_000])
        let stopped = await problems(of: hub, count: 4, "stops of the four timers", where: isScriptStop)
        #expect(stopped.count == 4, "\(hub.problems)")
        for _ in 0..<3 { _ = try await hub.dispatch(store: "s", action: "inc") }
        let engineSide = try await engineState(engine, "s")
        #expect(engineSide["cbs"] == 4 && engineSide["n"] == 3)
        #expect(await mirror(of: hub, "s") { $0 == engineSide })
        let gaps = hub.problems.filter { if case .sequenceGap = $0.kind { true } else { false } }
        #expect(gaps.isEmpty, "\(gaps)")
        await engine.close()
    }

    /// An async action pending across a stop loses its action tag (nothing tells it from the
    /// stopped call, docs/engine.md): its later write is untagged, and the page says so once,
    /// as an `action_tag_lost` problem the trace shows before that write.
    @Test func aPendingActionLosesItsTagAndTheTraceSaysSo() async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(name: "tags", executionTimeLimit: .milliseconds(150)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: .tick)
        try await engine.execute("""
            globalThis.release = null;
            const useT = defineStore('t', {
              state: () => ({ n: 0, late: 0 }),
              actions: {
                async slow() { this.n = 1; await new Promise((resolve) => { globalThis.release = resolve }); this.late = 42 },
                spin() { while (true) { this.n++ } },
                inc() { this.n += 1 },
              },
            });
            useT();
            """, sourceURL: "tags.js")
        let slow = Task { try await hub.dispatch(store: "t", action: "slow") }
        #expect(await mirror(of: hub, "t") { $0?["n"] == 1 })
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "t", action: "spin") }
        _ = try await hub.dispatch(store: "t", action: "inc")
        try await engine.execute("globalThis.release()")
        _ = try await slow.value
        #expect(await mirror(of: hub, "t") { $0?["late"] == 42 })
        let problems = hub.problems.filter { if case .reportedByPage(code: "action_tag_lost", _, _) = $0.kind { true } else { false } }
        #expect(problems.count == 1, "\(hub.problems)")
        if case .reportedByPage(_, let message, _)? = problems.first?.kind { #expect(message.contains("slow (call 1)"), "\(message)") }
        let records = recorder.records
        let marker = records.firstIndex { $0.type == "error" && $0.message.contains("action_tag_lost") }
        let lateWrite = records.firstIndex { $0.type == "apply_mutation" && $0.message.contains("\"late\"") }
        #expect(marker != nil && lateWrite != nil && marker! < lateWrite!)
        if let lateWrite { #expect(!records[lateWrite].message.contains("\"action\""), "\(records[lateWrite].message)") }
        // A stop with no call pending says nothing.
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "t", action: "spin") }
        _ = try await hub.dispatch(store: "t", action: "inc")
        #expect(hub.problems.filter { if case .reportedByPage(code: "action_tag_lost", _, _) = $0.kind { true } else { false } }.count == 1)
        await engine.close()
    }

    /// A stop inside one sync subscriber of a held delivery: the recovery takes the delivery up with
    /// the subscribers after it, each called once, and does not call the stopped one again (it
    /// would run away again, inside the recovery, and leave every later write held).
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func theSubscribersAfterAStoppedOneGetTheWriteOnce(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "resume-\(flush)", executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute("""
            globalThis.calls = { before: [], runaway: 0, after: [] };
            const useA = defineStore('a', { state: () => ({ n: 0 }), actions: { set(k) { this.n = k } } });
            const useB = defineStore('b', { state: () => ({ fromA: 0 }) });
            const a = useA(), b = useB();
            a.$subscribe(() => { b.fromA = a.n }, { flush: 'sync' });
            b.$subscribe(() => { calls.before.push(b.fromA) }, { flush: 'sync' });
            b.$subscribe(() => { calls.runaway++; if (b.fromA < 0) for (;;) {} }, { flush: 'sync' });
            b.$subscribe(() => { calls.after.push(b.fromA) }, { flush: 'sync' });
            """, sourceURL: "resume.js")
        _ = try await hub.dispatch(store: "a", action: "set", args: [1])
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "a", action: "set", args: [-1]) }
        _ = try await hub.dispatch(store: "a", action: "set", args: [2])
        #expect(try await engine.evaluate("calls") == ["before": [1, -1, 2], "runaway": 3, "after": [1, -1, 2]])
        for store in ["a", "b"] {
            let expected = try await engineState(engine, store)
            #expect(await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }, "\(store): \(expected.jsonText())")
        }
        await engine.close()
    }

    /// A recovery the limit stops again and again (a held write reaching one runaway subscriber after
    /// another) runs again at once, each time past the subscriber it was stopped in; the last attempt
    /// only resets and drops what is still held. The page's later writes reach the mirror.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aRecoveryStoppedAgainAndAgainEndsWithThePageWriting(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "again-\(flush)", executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute("""
            globalThis.runaways = [0, 0, 0, 0, 0, 0];
            globalThis.armed = true;
            const useA = defineStore('a', { state: () => ({ n: 0 }), actions: { set(k) { this.n = k } } });
            const useB = defineStore('b', { state: () => ({ fromA: 0, own: 0 }), actions: { bump() { this.own++ } } });
            const a = useA(), b = useB();
            a.$subscribe(() => { b.fromA = a.n }, { flush: 'sync' });
            for (let i = 0; i < 6; i++) b.$subscribe(() => { runaways[i]++; if (armed && b.fromA < 0) for (;;) {} }, { flush: 'sync' });
            """, sourceURL: "again.js")
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "a", action: "set", args: [-1]) }
        // The dispatch's stop in the first, three recoveries stopped in the next three, the last
        // attempt dropped the write for the two after them.
        #expect(try await engine.evaluate("runaways") == [1, 1, 1, 1, 0, 0])
        let recoveryStops = hub.problems.filter { "\($0)".contains("the recovery after a stop") }
        #expect(recoveryStops.count == 3, "\(hub.problems)")
        try await engine.execute("armed = false")
        for _ in 0..<3 { _ = try await hub.dispatch(store: "b", action: "bump") }
        // The bumps reached all six.
        #expect(try await engine.evaluate("runaways") == [4, 4, 4, 4, 3, 3])
        #expect(try await engine.evaluate("useB().own") == 3)
        for store in ["a", "b"] {
            let expected = try await engineState(engine, store)
            #expect(await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }, "\(store): \(expected.jsonText())")
        }
        await engine.close()
    }
}
