import JSEngine
import Testing
@testable import StateHub

/// An attacker's review of the recovery that takes a cut-short delivery up after the subscriber it was
/// stopped in (docs/engine.md, "Recovery after a stop"). Each page logs what
/// every sync and batched subscriber is given (`type:path=value`), a time-limit stop lands in one of them
/// at an odd moment, and the test checks that every other subscriber gets each write once, in write
/// order, and that the mirror ends equal to `$state`, in both flush modes.
@Suite("Recovery after a stop under attack", .tags(.engine), stopSuiteTimeLimit)
struct StopRecoveryAttackTests {
    /// `logTo(name)`: a subscriber that logs each mutation it is given as `type:path=value,...`
    /// (`+p` when it carries a payload), into `seen[name]`.
    static let prelude = """
        globalThis.seen = {};
        globalThis.logTo = (name) => {
          seen[name] = [];
          return (m) => {
            const ops = Array.isArray(m.events) ? m.events : [m.events];
            seen[name].push(m.type + (m.payload !== undefined ? '+p' : '') + ':' + ops.map((op) => op.path.join('.') + '=' + op.value).join(','));
          };
        };
        """

    /// A sync subscriber that unsubscribes itself, or the one before it, or subscribes a new one, and is
    /// then stopped: the subscribers after it get the write once; a subscriber added during the delivery
    /// does not get that delivery (as without a stop, and as in Pinia, which calls a copy of its list).
    @Test(arguments: [StoreScripts.Flush.tick, .sync], ["itself", "before", "adds"])
    func aStoppedSubscriberThatChangesTheListMidDelivery(flush: StoreScripts.Flush, mode: String) async throws {
        let (hub, engine) = try await page("list-\(mode)-\(flush)", flush: flush, script: """
            globalThis.mode = \(JSONValue.string(mode).jsonText());
            const useB = defineStore('b', { state: () => ({ v: 0 }), actions: { set(k) { this.v = k } } });
            const b = useB();
            const stop0 = b.$subscribe(logTo('s0'), { flush: 'sync' });
            const stop1 = b.$subscribe(() => {
              if (b.v !== -1) return;
              if (mode === 'itself') stop1();
              else if (mode === 'before') stop0();
              else b.$subscribe(logTo('late'), { flush: 'sync' });
              for (;;) {}
            }, { flush: 'sync' });
            b.$subscribe(logTo('s2'), { flush: 'sync' });
            b.$subscribe(logTo('s3'), { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "b", action: "set", args: [1])
        await expectStop(hub, "b", "set", [-1])
        _ = try await hub.dispatch(store: "b", action: "set", args: [2])
        let all: JSONValue = ["direct:v=1", "direct:v=-1", "direct:v=2"]
        var expected: [String: JSONValue] = ["s0": all, "s2": all, "s3": all]
        if mode == "before" { expected["s0"] = ["direct:v=1", "direct:v=-1"] }
        if mode == "adds" { expected["late"] = ["direct:v=2"] }
        let seen = try await engine.evaluate("seen")
        for (name, log) in expected { #expect(seen[name] == log, "\(mode), \(flush), \(name): \(seen.jsonText())") }
        #expect(seen.objectValue?.count == expected.count, "\(mode), \(flush): \(seen.jsonText())")
        try await expectMirrors(hub, engine, ["b"], "\(mode), \(flush)")
        await engine.close()
    }

    /// A stop in a sync subscriber during a `$patch`'s delivery: the subscribers after it, sync and
    /// batched, get the patch once with its kind and payload (a batched one its buffered ops).
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aStopInAPatchDeliveryKeepsItsKindAndTheBatchedOps(flush: StoreScripts.Flush) async throws {
        let (hub, engine) = try await page("patch-\(flush)", flush: flush, script: """
            const useB = defineStore('b', {
              state: () => ({ v: 0, w: 0 }),
              actions: {
                set(k) { this.v = k },
                patchFn(k) { this.$patch((s) => { s.v = k; s.w = k }) },
                patchObj(k) { this.$patch({ v: k, w: k }) },
              },
            });
            const b = useB();
            b.$subscribe(logTo('s0'), { flush: 'sync' });
            b.$subscribe(() => { if (b.v < 0) for (;;) {} }, { flush: 'sync' });
            b.$subscribe(logTo('s2'), { flush: 'sync' });
            b.$subscribe(logTo('q'));
            b.$subscribe(logTo('s4'), { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "b", action: "set", args: [1])
        await expectStop(hub, "b", "patchFn", [-1])
        await expectStop(hub, "b", "patchObj", [-2])
        _ = try await hub.dispatch(store: "b", action: "set", args: [3])
        _ = try await hub.dispatch(store: "b", action: "patchFn", args: [4])
        let all: JSONValue = ["direct:v=1", "patch function:v=-1,w=-1", "patch object+p:v=-2,w=-2", "direct:v=3", "patch function:v=4,w=4"]
        #expect(try await engine.evaluate("seen") == ["s0": all, "s2": all, "q": all, "s4": all], "\(flush)")
        try await expectMirrors(hub, engine, ["b"], "\(flush)")
        await engine.close()
    }

    /// Store A's patch is delivered (not held), its sync subscriber writes store B, whose delivery runs
    /// inside A's; a stop in B's runaway subscriber leaves two deliveries in flight. Both go on, each
    /// subscriber gets each write once, and a subscriber of both stores sees each store's writes in order.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aStopInANestedDeliveryOfAnotherStore(flush: StoreScripts.Flush) async throws {
        let (hub, engine) = try await page("nested-\(flush)", flush: flush, script: """
            const useA = defineStore('a', { state: () => ({ v: 0 }), actions: { patch(k) { this.$patch((s) => { s.v = k }) } } });
            const useB = defineStore('b', { state: () => ({ x: 0 }) });
            const a = useA(), b = useB();
            const both = logTo('both');
            a.$subscribe(() => { b.x = a.v }, { flush: 'sync' });
            a.$subscribe(logTo('a2'), { flush: 'sync' });
            a.$subscribe((m) => both(m), { flush: 'sync' });
            b.$subscribe(logTo('b0'), { flush: 'sync' });
            b.$subscribe(() => { if (b.x < 0) for (;;) {} }, { flush: 'sync' });
            b.$subscribe(logTo('b2'), { flush: 'sync' });
            b.$subscribe((m) => both(m), { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "a", action: "patch", args: [1])
        await expectStop(hub, "a", "patch", [-1])
        _ = try await hub.dispatch(store: "a", action: "patch", args: [2])
        let patches: JSONValue = ["patch function:v=1", "patch function:v=-1", "patch function:v=2"]
        let writes: JSONValue = ["direct:x=1", "direct:x=-1", "direct:x=2"]
        let seen = try await engine.evaluate("seen")
        #expect(seen["a2"] == patches && seen["b0"] == writes && seen["b2"] == writes, "\(flush): \(seen.jsonText())")
        let both = seen["both"]?.arrayValue ?? []
        #expect(JSONValue.array(both.filter { $0.stringValue?.hasPrefix("patch") == true }) == patches, "\(flush): \(seen.jsonText())")
        #expect(JSONValue.array(both.filter { $0.stringValue?.hasPrefix("direct") == true }) == writes, "\(flush): \(seen.jsonText())")
        try await expectMirrors(hub, engine, ["a", "b"], "\(flush)")
        await engine.close()
    }

    /// A subscriber that resets its store (a `$patch` queued behind the delivery) or disposes it, then
    /// runs away: the rest of the delivery and the reset's patch reach the others once; a disposed
    /// store's subscribers get nothing more and the store made again is mirrored.
    @Test(arguments: [StoreScripts.Flush.tick, .sync], ["reset", "dispose"])
    func aSubscriberThatResetsOrDisposesThenRunsAway(flush: StoreScripts.Flush, mode: String) async throws {
        let (hub, engine) = try await page("\(mode)-\(flush)", flush: flush, script: """
            globalThis.mode = \(JSONValue.string(mode).jsonText());
            globalThis.useB = defineStore('b', { state: () => ({ v: 0, r: 5 }), actions: { set(k) { this.v = k } } });
            const b = useB();
            b.$subscribe(logTo('s0'), { flush: 'sync' });
            b.$subscribe(() => {
              if (b.v !== -1) return;
              if (mode === 'reset') b.$reset(); else b.$dispose();
              for (;;) {}
            }, { flush: 'sync' });
            b.$subscribe(logTo('s2'), { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "b", action: "set", args: [1])
        // Disposed by the subscriber before the stop, the store's dispatch answers that it was disposed.
        await expectStop(hub, "b", "set", [-1], orDisposed: mode == "dispose")
        try await engine.execute("useB().set(2); useB().r = 6")
        let seen = try await engine.evaluate("seen")
        if mode == "reset" {
            let all: JSONValue = ["direct:v=1", "direct:v=-1", "patch function:v=0", "direct:v=2", "direct:r=6"]
            #expect(seen == ["s0": all, "s2": all], "\(flush): \(seen.jsonText())")
        } else {
            #expect(seen == ["s0": ["direct:v=1", "direct:v=-1"], "s2": ["direct:v=1"]], "\(flush): \(seen.jsonText())")
        }
        try await expectMirrors(hub, engine, ["b"], "\(mode), \(flush)")
        await engine.close()
    }

    /// One write stopped first in a sync watcher, then (the recovery delivering the held write) in a
    /// runaway sync subscriber, then (the watcher run again) in the watcher: each subscriber gets the
    /// write once, the runaway one once, and the watchers and the mirror follow the later writes.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aStopInAWatcherAndARunawaySubscriberInOneWrite(flush: StoreScripts.Flush) async throws {
        let (hub, engine) = try await page("watcher-\(flush)", flush: flush, script: """
            globalThis.runaway = [];
            const useS = defineStore('s', { state: () => ({ w: 0, bySync: 0, byPre: 0 }), actions: { set(k) { this.w = k } } });
            const s = useS();
            watch(() => s.w, (v) => { if (v < 0) for (;;) {} s.bySync = v }, { flush: 'sync' });
            watch(() => s.w, (v) => { s.byPre = v });
            s.$subscribe(logTo('s0'), { flush: 'sync' });
            s.$subscribe(() => { runaway.push(s.w); if (s.w < 0) for (;;) {} }, { flush: 'sync' });
            s.$subscribe(logTo('s2'), { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "s", action: "set", args: [1])
        await expectStop(hub, "s", "set", [-1])
        for k in 2...5 { _ = try await hub.dispatch(store: "s", action: "set", args: [.number(Double(k))]) }
        let seen = try await engine.evaluate("seen")
        #expect(seen["s0"] == seen["s2"], "\(flush): \(seen.jsonText())")
        #expect(seen["s2"]?.arrayValue?.filter { $0 == "direct:w=-1" }.count == 1, "\(flush): \(seen.jsonText())")
        #expect(try await engine.evaluate("runaway.filter((w) => w === -1).length") == 1)
        #expect(try await engine.evaluate("[useS().bySync, useS().byPre]") == [5, 5])
        try await expectMirrors(hub, engine, ["s"], "\(flush)")
        await engine.close()
    }

    /// Two sync watchers of one key: the first runs away on a write. The second, in the same batch of
    /// effects, is not the one the stop landed in: it should run for that write, as sync subscribers after a
    /// stopped one get the write.
    ///
    /// A known issue (`withKnownIssue` below): reactivity.js `flushBatchedEffects` copies the batch and
    /// clears the set before running it, so the effects after the one a stop lands in are in neither the
    /// set nor `runningEffects` (they never started): the recovery does not run them and the second watcher
    /// never sees -1 (it gets [1, 2]; its next call has the stale old value). A fix keeps the rest of the
    /// batch where the recovery finds it (a stack of batches in flight: flushes nest) on the write path,
    /// so it needs `statehub bench` figures.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aSyncWatcherAfterAStoppedOneInTheSameWriteRuns(flush: StoreScripts.Flush) async throws {
        let (hub, engine) = try await page("watchers-\(flush)", flush: flush, script: """
            globalThis.second = [];
            const useS = defineStore('s', { state: () => ({ w: 0 }), actions: { set(k) { this.w = k } } });
            const s = useS();
            watch(() => s.w, (v) => { if (v < 0) for (;;) {} }, { flush: 'sync' });
            watch(() => s.w, (v) => { second.push(v) }, { flush: 'sync' });
            """)
        _ = try await hub.dispatch(store: "s", action: "set", args: [1])
        await expectStop(hub, "s", "set", [-1])
        _ = try await hub.dispatch(store: "s", action: "set", args: [2])
        let second = try await engine.evaluate("second")
        withKnownIssue("the batch's effects after a stopped one are not run by the recovery") {
            #expect(second == [1, -1, 2], "\(flush): \(second.jsonText())")
        }
        try await expectMirrors(hub, engine, ["s"], "\(flush)")
        await engine.close()
    }

    /// A recovery stopped again and again (the last attempt only resets), twice over, then many writes:
    /// none is held. The mirror, a batched subscriber and a pre-flush watcher (the page's only queued
    /// jobs) all follow every later write.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func aPageWhoseRecoveryIsStoppedFourTimesKeepsWriting(flush: StoreScripts.Flush) async throws {
        let (hub, engine) = try await page("four-\(flush)", flush: flush, script: """
            globalThis.armed = true;
            globalThis.watched = [];
            const useA = defineStore('a', { state: () => ({ n: 0 }), actions: { set(k) { this.n = k } } });
            const useB = defineStore('b', { state: () => ({ fromA: 0, own: 0 }), actions: { bump() { this.own++ } } });
            const a = useA(), b = useB();
            a.$subscribe(() => { b.fromA = a.n }, { flush: 'sync' });
            for (let i = 0; i < 6; i++) b.$subscribe(() => { if (armed && b.fromA < 0) for (;;) {} }, { flush: 'sync' });
            b.$subscribe(logTo('q'));
            watch(() => b.fromA, (v) => { watched.push(v) });
            """)
        var k = 0
        for round in 1...2 {
            try await engine.execute("armed = true")
            await expectStop(hub, "a", "set", [.number(Double(-round))])
            try await engine.execute("armed = false")
            for _ in 0..<20 {
                k += 1
                _ = try await hub.dispatch(store: "a", action: "set", args: [.number(Double(k))])
                _ = try await hub.dispatch(store: "b", action: "bump")
            }
            try await expectMirrors(hub, engine, ["a", "b"], "round \(round), \(flush)")
            #expect(try await engine.evaluate("watched[watched.length - 1]") == .number(Double(k)), "round \(round), \(flush): the pre-flush watcher")
            #expect(try await engine.evaluate("seen.q[seen.q.length - 1]") == .string("direct:own=\(20 * round)"),
                    "round \(round), \(flush): the batched subscriber")
        }
        await engine.close()
    }

    // MARK: - Helpers

    private func page(_ name: String, flush: StoreScripts.Flush, script: String) async throws -> (GlobalStateHub, JavaScriptEngine) {
        let hub = GlobalStateHub.forStopTests()
        let engine = try JavaScriptEngine(configuration: .init(name: name, executionTimeLimit: .milliseconds(100)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.prelude + script, sourceURL: "\(name).js")
        return (hub, engine)
    }

    private func expectStop(_ hub: GlobalStateHub, _ store: String, _ action: String, _ args: [JSONValue], orDisposed: Bool = false,
                            sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await hub.dispatch(store: store, action: action, args: args)
            Issue.record("\(store).\(action) was not stopped", sourceLocation: sourceLocation)
        } catch StateHubError.stopped {
        } catch StateHubError.storeDisposed where orDisposed {
        } catch {
            Issue.record("\(store).\(action): \(error)", sourceLocation: sourceLocation)
        }
    }

    private func expectMirrors(_ hub: GlobalStateHub, _ engine: JavaScriptEngine, _ stores: [String], _ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for store in stores {
            let expected = try await engineState(engine, store)
            let matches = await mirror(of: hub, store) { $0?.isSemanticallyEqual(to: expected) == true }
            #expect(matches, "\(context), store \(store): mirror \(hub.state(of: store)?.jsonText() ?? "nil") != $state \(expected.jsonText())",
                    sourceLocation: sourceLocation)
        }
    }
}
