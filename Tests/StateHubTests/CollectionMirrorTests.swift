import JSEngine
import Testing
@testable import StateHub

/// Map and Set edited in place, and writes no proxy sees, reach the Swift mirror.
@Suite("Mirrored collections", .tags(.engine))
struct CollectionMirrorTests {
    static let store = """
        (() => {
          const useTags = defineStore('tags', () => {
            const byId = reactive(new Map([['a', { label: 'A', count: 1 }]]))
            const seen = ref(new Set(['a']))
            const when = ref(new Date(0))
            const raw = ref(markRaw({ hits: 0 }))
            function tag(id, label) { byId.set(id, { label, count: 0 }); seen.value.add(id) }
            function bump(id) { byId.get(id).count++ }
            function forget(id) { byId.delete(id); seen.value.delete(id) }
            function fill(n) { for (let i = 0; i < n; i++) byId.set('k' + i, { label: String(i), count: i }) }
            function touch() { when.value.setTime(86400000); raw.value.hits++ }
            return { byId, seen, when, raw, tag, bump, forget, fill, touch }
          })
          useTags()
        })()
        """

    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func mapAndSetEditedInPlaceAreEqualInTheMirror(flush: StoreScripts.Flush) async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "collections-\(flush.rawValue)", flush: flush)
        try await engine.execute(Self.store, sourceURL: "tags.js")
        for (action, args) in [("tag", ["b", "B"]), ("bump", ["a"]), ("bump", ["b"]), ("forget", ["a"]), ("fill", [200] as [JSONValue]), ("touch", [])] as [(String, [JSONValue])] {
            try await hub.dispatch(store: "tags", action: action, args: args)
            let engineSide = try await engineState(engine, "tags")
            #expect(hub.state(of: "tags") == engineSide, "after \(action)")
        }
        // a direct write in place, outside any action: equal after the tick
        try await engine.execute("getActivePinia()._s.get('tags').byId.get('b').label = 'changed'", sourceURL: "direct.js")
        try await engine.waitUntilIdle(timeout: .seconds(10))
        for _ in 0..<3 { try await engine.execute("void 0") }   // queued deliveries run first (FIFO)
        let engineSide = try await engineState(engine, "tags")
        #expect(hub.state(of: "tags") == engineSide)
        #expect(hub.state(of: "tags")?["when"]?["value"] == "1970-01-02T00:00:00.000Z")
        #expect(hub.state(of: "tags")?["raw"]?["hits"] == 1)
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }
}
