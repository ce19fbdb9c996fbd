import JSEngine
import Testing
import Trace
@testable import StateHub

/// Mutations carry the action call that made them and how it nests (docs/PROTOCOL.md A.5.2).
@Suite("Action tags on mutations", .tags(.engine))
struct ActionTagTests {
    static let nested = #"{"v":1,"storeId":"s","messageId":"w4","seq":4,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","action":"inner","call":13,"parent":12,"root":12,"dispatch":"n-7","ops":[{"op":"set","path":["n"],"value":3}]}]}}"#

    @Test func nestedTagsStayOnTheHubsFastPath() throws {
        #expect(StoreMessageDecoder.decode(Self.nested) != nil)
        #expect(try StoreMessage(text: Self.nested).mutations?.get() == StoreMessage(parsing: Self.nested).mutations?.get())
    }
}

extension ActionTagTests {
    static let store = """
        (() => {
          const useS = defineStore('nest', {
            state: () => ({ n: 0, log: [] }),
            actions: {
              async outer() { this.n++; await Promise.resolve(); this.inner('a'); await this.slow(); this.n += 10 },
              inner(x) { this.log.push(x) },
              async slow() { await Promise.resolve(); this.log.push('slow') }
            }
          })
          useS()
        })()
        """

    /// A native dispatch of an async action that calls others after `await`s: in both flush modes
    /// every mutation names its action, the dispatched call as root and the dispatch's messageId.
    @Test(arguments: [StoreScripts.Flush.tick, .sync])
    func nestedActionsAfterAwaitAreTaggedAlike(flush: StoreScripts.Flush) async throws {
        let recorder = TraceRecorder(capacity: 1_000)
        let hub = GlobalStateHub(configuration: .init(trace: recorder))
        let engine = try JavaScriptEngine(configuration: .init(name: "tags-\(flush.rawValue)"))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.execute(Self.store, sourceURL: "nest.js")
        _ = try await hub.dispatch(store: "nest", action: "outer")
        let dispatchRecord = try #require(recorder.records.first { $0.type == "dispatch_action" })
        let dispatchId = try JSONValue(parsing: dispatchRecord.message)["messageId"]
        var mutations: [JSONValue] = []
        for record in recorder.records where record.type == "apply_mutation" && record.direction == .webToNative {
            mutations += try JSONValue(parsing: record.message)["payload"]?["mutations"]?.arrayValue ?? []
        }
        let root = try #require(mutations.first?["call"])
        #expect(mutations.map { $0["action"] } == ["outer", "inner", "slow", "outer"])
        #expect(mutations.map { $0["dispatch"] } == Array(repeating: dispatchId, count: 4))
        let nesting: [String] = mutations.map { mutation in
            if mutation["call"] == root { return "root" }
            return mutation["parent"] == root && mutation["root"] == root ? "child" : "other"
        }
        #expect(nesting == ["root", "child", "child", "root"])
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }
}
