import JSEngine
import Testing
@testable import StateHub

/// The mirror equals the engine's state after random sequences of direct writes, nested
/// writes, array methods, deletes, `$patch` (object and function), `$state` assignment,
/// `$reset` and actions — 1,000 sequences from a fixed seed, in both flush modes.
@Suite("Mirror consistency under random mutations", .tags(.engine))
struct RandomConsistencyTests {
    static let generator = """
        (function () {
          let seed = 20261122;
          function random() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
          function pick(list) { return list[Math.floor(random() * list.length)]; }
          function value(depth) {
            const r = random();
            if (r < 0.2) return Math.floor(random() * 100);
            if (r < 0.35) return pick(['a', 'b', 'ünïcødé', '', '😀']);
            if (r < 0.45) return random() < 0.5;
            if (r < 0.5) return null;
            if (r < 0.6 && depth < 3) return [value(depth + 1), value(depth + 1)];
            if (r < 0.7 && depth < 3) { const o = {}; o[pick(['x', 'y', '3', 'z'])] = value(depth + 1); return o; }
            if (r < 0.75) return new Date(1700000000000 + Math.floor(random() * 1e9));
            return Math.floor(random() * 1000) / 10;
          }
          globalThis.useFuzz = defineStore('fuzz', {
            state: () => ({ n: 0, list: [1, 2, 3], nested: { a: { b: [] } }, map: {}, text: '' }),
            actions: {
              bump(by) { this.n += by; this.list.push(by); },
              reorder() { this.list.sort((a, b) => String(a).localeCompare(String(b))); },
            },
          });
          const store = useFuzz();
          const steps = [
            () => { store.n = Math.floor(random() * 50); },
            () => { store.text += pick(['x', 'yz', '']); },
            () => { store.list.push(value(0)); },
            () => { store.list.splice(Math.floor(random() * (store.list.length + 1)), Math.floor(random() * 2), value(0)); },
            () => { if (store.list.length) store.list[Math.floor(random() * store.list.length)] = value(0); },
            () => { store.list.length = Math.floor(random() * (store.list.length + 2)); },
            () => { store.list.pop(); },
            () => { store.list.shift(); },
            () => { store.list.unshift(value(0), value(0)); },
            () => { store.list.reverse(); },
            () => { store.map[pick(['k1', 'k2', '7', '10', 'k3'])] = value(0); },
            () => { delete store.map[pick(['k1', 'k2', '7', '10', 'k3'])]; },
            () => { if (Array.isArray(store.nested.a.b)) store.nested.a.b.push({ id: Math.floor(random() * 10) }); },
            () => { const first = store.nested.a.b[0]; if (first && typeof first === 'object') first.id = value(1); },
            () => { store.nested = { a: { b: [value(1)] } }; },
            () => { store.$patch({ n: store.n + 1, nested: { a: { extra: value(1) } }, map: { patched: true } }); },
            () => { store.$patch((s) => { s.list.push('from patch'); delete s.map.patched; s.text = 'p'; }); },
            () => { store.$state = { n: 7, list: [value(0)], nested: { a: { b: [] } }, map: {}, text: 't' }; },
            () => { if (random() < 0.2) store.$reset(); },
            () => { store.bump(Math.floor(random() * 5)); },
            () => { store.reorder(); },
          ];
          globalThis.fuzzStep = function (count) { for (let i = 0; i < count; i++) pick(steps)(); };
        })();
        """

    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func thousandRandomSequences(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, flush: flush)
        try await engine.execute(Self.generator, sourceURL: "fuzz.js")
        for sequence in 0..<1_000 {
            // One sequence is one JavaScript task: its tick flushes before `execute` returns.
            try await engine.execute("fuzzStep(\(1 + sequence % 7))")
            let expected = try await engineState(engine, "fuzz")
            let mirror = try #require(hub.state(of: "fuzz"))
            guard mirror.isSemanticallyEqual(to: expected) else {
                Issue.record("sequence \(sequence): mirror \(mirror.jsonText()) != engine \(expected.jsonText())")
                return
            }
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        // Dispatched actions interleave with the same guarantees.
        for by in 0..<20 { try await hub.dispatch(store: "fuzz", action: "bump", args: [.number(Double(by))]) }
        #expect(try #require(hub.state(of: "fuzz")).isSemanticallyEqual(to: try await engineState(engine, "fuzz")))
    }
}
