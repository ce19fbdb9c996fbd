import JSEngine
import Testing
@testable import StateHub

/// Entry ops (docs/PROTOCOL.md A.3.1): a Map or Set changed in place is addressed by position
/// in its tagged value's array, and the hub applies those ops like any other.
@Suite("Entry ops of Map and Set", .tags(.engine))
struct EntryOpTests {
    @Test func theMirrorAppliesEntryOpsLiterally() throws {
        var state: JSONValue = [
            "m": ["$type": "Map", "entries": [["a", 1], ["b", ["x": 1]]]],
            "s": ["$type": "Set", "values": ["x", "y"]],
        ]
        let ops: [MutationOp] = [
            .splice(path: [.key("m"), .key("entries")], index: 2, deleteCount: 0, items: [["c", 3]]),   // map.set('c', 3)
            .set(path: [.key("m"), .key("entries"), .index(0), .index(1)], value: 10),                    // map.set('a', 10)
            .splice(path: [.key("m"), .key("entries")], index: 1, deleteCount: 1, items: []),             // map.delete('b')
            .splice(path: [.key("s"), .key("values")], index: 2, deleteCount: 0, items: ["z"]),           // set.add('z')
            .splice(path: [.key("s"), .key("values")], index: 0, deleteCount: 1, items: []),              // set.delete('x')
        ]
        for op in ops { try state.apply(op) }
        #expect(state == [
            "m": ["$type": "Map", "entries": [["a", 10], ["c", 3]]],
            "s": ["$type": "Set", "values": ["y", "z"]],
        ])
        #expect(state.untagged() == ["m": ["a": 10, "c": 3], "s": ["y", "z"]])
        try state.apply(.set(path: [.key("m"), .key("entries")], value: []))                              // map.clear()
        #expect(state["m"] == ["$type": "Map", "entries": []])
        // an entry past the end is an op failure (the hub asks for a resync), never a guess
        #expect(throws: MutationOpError.self) { try state.apply(.set(path: [.key("m"), .key("entries"), .index(3), .index(1)], value: 1)) }
    }

    static let store = """
        (() => {
          const useBig = defineStore('big', () => {
            const byId = reactive(new Map(Array.from({ length: 5000 }, (_, i) => ['k' + i, { n: i }])))
            const tags = reactive(new Set(['a', 'b']))
            return { byId, tags }
          })
          useBig()
        })()
        """

    @Test func aLargeMapUnderFlushSyncStaysEqualInTheMirror() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "entry-ops", flush: .sync)
        try await engine.execute(Self.store, sourceURL: "big.js")
        let writes = [
            "big.byId.set('k17', { n: 'changed' })",
            "big.byId.set('fresh', { n: -1 }); big.byId.set(7, 'number key')",
            "big.byId.delete('k0'); big.byId.delete('k4999')",
            "big.tags.add('c'); big.tags.delete('a')",
            "big.byId.get('fresh').n = 42",
            "big.byId.clear(); big.byId.set('only', 1); big.tags.clear()",
        ]
        for write in writes {
            try await engine.execute("(() => { const big = getActivePinia()._s.get('big'); \(write) })()", sourceURL: "write.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            for _ in 0..<3 { try await engine.execute("void 0") }   // queued deliveries run first (FIFO)
            let engineSide = try await engineState(engine, "big")
            #expect(hub.state(of: "big") == engineSide, "after \(write)")
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }
}
