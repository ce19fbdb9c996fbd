import JSEngine
import Testing
import Trace
@testable import StateHub

/// An attacker's review of the fast paths: the write that delivers its op at
/// once when no effect reacts (reactivity.js `setOwn`, pinia.js `deliverNow`), the plugin's plain-set
/// queue, the dispatch hooks and the hub's one-set write path. Odd orderings run in a real engine
/// and the mirror is compared with the engine's `$state` after every step, in both flush modes.
@Suite("Fast paths under odd orderings (attack)", .tags(.engine), stopSuiteTimeLimit)
struct FastPathAttackTests {
    static let stores = """
        globalThis.useA = defineStore('a', {
          state: () => ({ n: 0, m: 0, echo: 0, list: [1, 2, 3], o: { k: 0 }, log: [], w: 0, clamp: 0, made: 0 }),
          actions: {
            inc() { this.n++; return this.n },
            boom() { this.n += 100; this.list.push('before-throw'); throw new Error('boom') },
            cross() { this.n++; useB().bump(); this.m = useB().v; return this.m },
            async slow(k) { this.w = k; await Promise.resolve(); this.w = k + 1; await new Promise((r) => setTimeout(r, 1)); this.w = k + 2; return k },
            addListener() { this.n++; useA().$onAction(() => { globalThis.lateListenerSaw = (globalThis.lateListenerSaw || 0) + 1 }); this.n++ },
          },
        });
        globalThis.useB = defineStore('b', {
          state: () => ({ v: 0, mirrorOfA: 0, keys: {} }),
          actions: { bump() { this.v++; useA().o.k = this.v } },
        });
        const a = useA(), b = useB();
        // A sync subscriber that writes to its own store and to another one.
        a.$subscribe((mutation) => {
          if (a.m !== a.n * 2) a.m = a.n * 2;
          if (b.mirrorOfA !== a.n) b.mirrorOfA = a.n;
        }, { flush: 'sync' });
        // A sync subscriber that makes an effect the first time (a watcher on the key being written).
        let made = false;
        a.$subscribe(() => {
          if (made) return;
          made = true;
          watch(() => a.n, (value) => { a.made = value }, { flush: 'sync' });
        }, { flush: 'sync' });
        // A sync watcher on a key that writes back to the same key (a clamp).
        watch(() => a.clamp, (value) => { if (value > 10) a.clamp = 10 }, { flush: 'sync' });
        // Two watchers on the same key, one sync, one pre-flush.
        watch(() => a.echo, (value) => { a.log.push('sync ' + value) }, { flush: 'sync' });
        watch(() => a.echo, (value) => { a.log.push('pre ' + value) });
        """

    static let steps: [(String, String)] = [
        ("plain write", "useA().n = 1"),
        ("write again (the subscriber's watcher exists now)", "useA().n = 2"),
        ("writes in a row", "{ const s = useA(); s.n = 3; s.n = 4; s.n = 5 }"),
        ("clamp by a sync watcher on the same key", "useA().clamp = 50"),
        ("clamp again from below", "{ const s = useA(); s.clamp = 3; s.clamp = 11 }"),
        ("two watchers on one key", "{ const s = useA(); s.echo = 1; s.echo = 2 }"),
        ("write through an array index", "{ const s = useA(); s.list[0] = 'x'; s.list[5] = 'hole' }"),
        ("array length", "useA().list.length = 2"),
        ("odd keys", """
            { const s = useB(); s.keys['$type'] = 'Date'; s.keys['a"b\\\\c'] = 1; s.keys['\\u2028'] = 2; s.keys['__proto__x'] = 3;
              s.keys['7'] = -0; s.keys.big = 1e300; s.keys.nan = NaN; s.keys.inf = -Infinity; s.keys['\\ud800'] = 'lone' }
            """),
        ("odd values", "{ const s = useB(); s.keys.lone = '\\udc00x'; s.keys.nested = { '$type': 'Map', entries: [] }; s.keys.arr = [undefined, null, [[[]]]] }"),
        ("write inside $patch", "useA().$patch((s) => { s.n = 20; s.o.k = 'in patch' })"),
        ("$patch object", "useA().$patch({ n: 21, o: { k: 'patched' } })"),
        ("write after $patch in the same tick", "{ const s = useA(); s.$patch({ n: 22 }); s.n = 23; s.$patch((x) => { x.n = 24 }); s.n = 25 }"),
        ("$state replaced", "{ const s = useA(); s.$state = { n: 30, list: ['r'] }; s.n = 31 }"),
        ("$reset then writes", "{ const s = useA(); s.$reset(); s.n = 40; s.clamp = 99 }"),
        ("an action", "useA().inc()"),
        ("an action that throws", "try { useA().boom() } catch (e) { }"),
        ("nested actions across stores", "useA().cross()"),
        ("a listener added mid-action", "useA().addListener()"),
        ("the action after it (two listeners)", "useA().inc()"),
        ("an object written at two places", "{ const s = useA(); const shared = { q: 1 }; s.o = shared; s.list.push(shared); s.o.q = 2; s.list[s.list.length - 1].q = 3 }"),
        ("an object in two stores' states", "{ const shared = { s: 1 }; useA().o = shared; useB().keys.shared = shared; useA().o.s = 2; useB().keys.shared.s = 3 }"),
        ("a subscriber's write into a store that a watcher writes back", "{ useB().mirrorOfA = -1; useA().n = 50 }"),
        ("a subscriber overwriting the key just written", """
            { const s = useA(); const stop = s.$subscribe(() => { if (s.n === 61) s.n = 62 }, { flush: 'sync' }); s.n = 61; s.n = 61; stop() }
            """),
        ("a subscriber replacing $state mid-delivery", """
            { const s = useA(); const stop = s.$subscribe(() => { if (s.w === 7) { stop(); s.$state = { w: 8, n: 70 } } }, { flush: 'sync' }); s.w = 7; s.w += 1 }
            """),
        ("a subscriber resetting mid-delivery", """
            { const s = useA(); const stop = s.$subscribe(() => { if (s.w === 9) { stop(); s.$reset(); s.n = 90 } }, { flush: 'sync' }); s.w = 9; s.o.k = 'after reset' }
            """),
        ("a subscriber patching mid-delivery", """
            { const s = useA(); const stop = s.$subscribe(() => { if (s.w === 11) { stop(); s.$patch((x) => { x.n = 110; x.w = 12 }) } }, { flush: 'sync' }); s.w = 11; s.w = 13 }
            """),
        ("a watchEffect made by a subscriber writes the same store", """
            { const s = useA(); let once = false; const stop = s.$subscribe(() => { if (!once) { once = true; stop(); watchEffect(() => { s.made = s.w * 10 }, { flush: 'sync' }) } }, { flush: 'sync' }); s.w = 14; s.w = 15 }
            """),
        ("a subscriber that stops another subscriber and subscribes a new one", """
            { const s = useA(); let second = null; const first = s.$subscribe(() => { if (second) { second(); second = null; s.$subscribe(() => { if (s.echo < 100) s.echo = 100 + s.n }, { flush: 'sync' }) } }, { flush: 'sync' });
              second = s.$subscribe(() => { s.clamp = 1 }, { flush: 'sync' }); s.n = 160; s.n = 161; first() }
            """),
        ("a write in an $onAction after callback and an onError callback", """
            { const s = useA(); s.$onAction(({ after, onError }) => { after(() => { s.w = 200 }); onError(() => { s.w = 201 }) }); s.inc(); try { s.boom() } catch (e) {} }
            """),
        ("a store disposed by its subscriber mid-delivery, then used again", """
            { const b = useB(); b.$subscribe(() => { if (b.v === 999) b.$dispose() }, { flush: 'sync' }); b.v = 999; const again = useB(); again.v = 1000 }
            """),
    ]

    @Test(arguments: [StoreScripts.Flush.sync, .tick])
    func theMirrorFollowsEveryStep(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "attack-\(flush)", flush: flush)
        try await engine.execute(Self.stores, sourceURL: "attack.js")
        for (name, script) in Self.steps {
            try await engine.execute(script, sourceURL: "step.js")
            for store in ["a", "b"] {
                let expected = try await engineState(engine, store)
                let matches = await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }
                #expect(matches, "\(flush), \(name), store \(store): mirror \(hub.state(of: store)?.jsonText() ?? "nil") != $state \(expected.jsonText())")
            }
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        await engine.close()
    }

    /// Async actions dispatched from native interleave (each awaits a microtask and a timer) with
    /// direct writes between them; an action that throws and a nested one across stores answer too.
    @Test(arguments: [StoreScripts.Flush.sync, .tick])
    func interleavedDispatchesEndEqual(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub(configuration: .init(trace: TraceRecorder(capacity: 10_000)))
        let engine = try await makePage(hub, name: "dispatch-\(flush)", flush: flush)
        try await engine.execute(Self.stores, sourceURL: "attack.js")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<6 {
                group.addTask { _ = try await hub.dispatch(store: "a", action: "slow", args: [.number(Double(k * 10))]) }
                group.addTask { _ = try await hub.dispatch(store: "a", action: "inc") }
                group.addTask { _ = try await hub.dispatch(store: "a", action: "cross") }
                group.addTask { try await engine.execute("useA().clamp = \(k * 4)") }
            }
            try await group.waitForAll()
        }
        do {
            _ = try await hub.dispatch(store: "a", action: "boom")
            Issue.record("boom did not throw")
        } catch StateHubError.actionThrew {
        }
        for store in ["a", "b"] {
            let expected = try await engineState(engine, store)
            let matches = await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }
            #expect(matches, "\(flush), store \(store): mirror \(hub.state(of: store)?.jsonText() ?? "nil") != $state \(expected.jsonText())")
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        await engine.close()
    }

    /// A time-limit stop inside a sync subscriber while a write is delivered at once (`deliverNow`) and
    /// inside a sync watcher (the held delivery): the writes after each stop reach the mirror whole.
    @Test(arguments: [StoreScripts.Flush.sync, .tick])
    func aStopInsideADeliveryLeavesNoDivergence(flush: StoreScripts.Flush) async throws {
        try await stopRounds(flush: flush, actions: ["spinInSubscriber", "spinInWatcher"], rounds: 3)
    }

    /// A store's sync subscriber writes to another store (held
    /// until the callbacks return) whose own sync subscriber runs away on that value. The stop lands in the
    /// held delivery; the recovery's `release` (pinia.js `releaseAfterStop` -> `releaseHeld`) delivers the
    /// held op again, the same subscriber runs away again, and the recovery turn is stopped too
    /// ("the recovery after a stop" problem). The recovery takes up after that stop too: otherwise,
    /// its `finally` blocks skipped, pinia.js would keep `releasing` true, every later write would be
    /// held for good (`recordOps` -> `hold`, `releaseHeld` returns at `releasing`), the mirror would
    /// stay behind `$state` with no problem naming it, and later sync subscribers would never run.
    /// The writes after the stop reach the mirror (or the page is retired with a typed error). A stop
    /// in the store's own subscriber (the test above) is not queued: the delivery at once takes it out.
    @Test(arguments: [StoreScripts.Flush.sync, .tick])
    func aStopInARecoveryRedeliveryLeavesThePageHoldingEveryWrite(flush: StoreScripts.Flush) async throws {
        // The recovery re-delivers the held op to the runaway subscriber and is stopped there; it
        // takes up after that stop, so no later write stays held.
        try await stopRounds(flush: flush, actions: ["spinInOtherStore", "spinInSubscriber"], rounds: 2)
    }

    /// Async dispatches that start on the plugin's direct hooks (its listener alone), then with a second
    /// `$onAction` listener added mid-action (the general path), then after it is removed again, settling
    /// out of order: every dispatch answers with its own result and the mirror ends equal to `$state`.
    @Test(arguments: [StoreScripts.Flush.sync, .tick])
    func dispatchesAcrossListenerChangesSettleOutOfOrder(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub(configuration: .init(trace: TraceRecorder(capacity: 10_000)))
        let engine = try await makePage(hub, name: "hooks-\(flush)", flush: flush)
        try await engine.execute("""
            globalThis.resolvers = {};
            globalThis.useH = defineStore('h', {
              state: () => ({ log: [], n: 0 }),
              actions: {
                async wait(key) { this.log.push('start ' + key); await new Promise((r) => { resolvers[key] = r }); this.log.push('end ' + key); this.n++; return key },
                async failLater(key) { this.log.push('start ' + key); await new Promise((r) => { resolvers[key] = r }); this.log.push('fail ' + key); throw new Error('late ' + key) },
                listen() { globalThis.stopListening = useH().$onAction(({ name, after }) => { after(() => { useH().log.push('seen ' + name) }) }); this.n += 10 },
                unlisten() { globalThis.stopListening(); this.n += 100 },
                outer() { this.n += 1000; return this.inner() + useH().n },
                inner() { this.log.push('inner'); return 1 },
              },
            });
            useH();
            """, sourceURL: "hooks.js")
        // Each wait below: until the actions started in the page (their first write reached the mirror).
        let started: @Sendable ([String]) -> @Sendable (JSONValue?) -> Bool = { keys in
            { state in keys.allSatisfy { state?["log"]?.arrayValue?.contains(.string("start \($0)")) == true } }
        }
        async let first = hub.dispatch(store: "h", action: "wait", args: ["a"])
        await mirror(of: hub, "h", becomes: started(["a"]))
        _ = try await hub.dispatch(store: "h", action: "listen")
        async let second = hub.dispatch(store: "h", action: "wait", args: ["b"])
        async let failing: JSONValue = hub.dispatch(store: "h", action: "failLater", args: ["c"])
        await mirror(of: hub, "h", becomes: started(["b", "c"]))
        _ = try await hub.dispatch(store: "h", action: "unlisten")
        async let third = hub.dispatch(store: "h", action: "wait", args: ["d"])
        await mirror(of: hub, "h", becomes: started(["d"]))
        let outer = try await hub.dispatch(store: "h", action: "outer")
        for key in ["d", "c", "b", "a"] { try await engine.execute("resolvers[\(JSONValue.string(key).jsonText())]()") }
        #expect(try await first == "a")
        #expect(try await second == "b")
        #expect(try await third == "d")
        do {
            _ = try await failing
            Issue.record("failLater did not fail")
        } catch StateHubError.actionThrew {
        }
        #expect(outer.numberValue.map { $0 > 1000 } == true, "\(outer)")
        let expected = try await engineState(engine, "h")
        let matches = await mirror(of: hub, "h") { $0?.isSemanticallyEqual(to: expected) == true }
        #expect(matches, "\(flush): mirror \(hub.state(of: "h")?.jsonText() ?? "nil") != $state \(expected.jsonText())")
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        await engine.close()
    }

    private func stopRounds(flush: StoreScripts.Flush, actions: [String], rounds: Int) async throws {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: "stop-\(flush)", executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute("""
            const useS = defineStore('s', {
              state: () => ({ n: 0, w: 0, toB: 0, other: 0 }),
              actions: {
                spinInSubscriber(k) { this.n = -k },
                spinInWatcher(k) { this.w = -k },
                spinInOtherStore(k) { this.toB = -k },
                inc() { this.n = Math.abs(this.n) + 1; this.w = Math.abs(this.w) + 1; this.toB = Math.abs(this.toB) + 1; this.other += 1; return this.n },
              },
            });
            const useT = defineStore('t', { state: () => ({ fromS: 0 }) });
            const s = useS(), t = useT();
            s.$subscribe(() => { if (s.n < 0) for (;;) {} }, { flush: 'sync' });
            watch(() => s.w, (value) => { if (value < 0) for (;;) {} }, { flush: 'sync' });
            s.$subscribe(() => { if (t.fromS !== s.toB) t.fromS = s.toB }, { flush: 'sync' });
            t.$subscribe(() => { if (t.fromS < 0) for (;;) {} }, { flush: 'sync' });
            """, sourceURL: "stops.js")
        for round in 1...rounds {
            for action in actions {
                do {
                    _ = try await hub.dispatch(store: "s", action: action, args: [.number(Double(round))])
                    Issue.record("\(action) was not stopped")
                } catch StateHubError.stopped {
                } catch {
                    Issue.record("\(action): \(error)")
                }
                _ = try await hub.dispatch(store: "s", action: "inc")
                try await engine.execute("useS().other = 1000 + \(round)")
                for store in ["s", "t"] {
                    let expected = try await engineState(engine, store)
                    let matches = await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }
                    let seen = hub.state(of: store)?.jsonText() ?? "nil"
                    #expect(matches, "\(flush), round \(round), after \(action), store \(store): mirror \(seen) != $state \(expected.jsonText()); problems \(hub.problems)")
                }
            }
        }
        await engine.close()
    }
}
