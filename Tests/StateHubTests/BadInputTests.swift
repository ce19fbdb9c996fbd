import JSEngine
import Testing
import Trace
@testable import StateHub

/// What a page can send that the hub must survive, record and repair.
@Suite("Bad input from pages", .tags(.engine))
struct BadInputTests {
    func post(_ engine: JavaScriptEngine, _ message: String) async throws {
        try await engine.execute("window.webkit.messageHandlers.nativeBridge.postMessage(\(JSONValue.string(message).jsonText()))")
    }

    func counterPage(_ hub: GlobalStateHub, name: String = "page") async throws -> JavaScriptEngine {
        let engine = try await makePage(hub, name: name)
        try await engine.execute("globalThis.useCounter = defineStore('counter', { state: () => ({ n: 1, items: [] }) }); useCounter();")
        return engine
    }

    @Test func malformedMessagesAreRecordedNotFatal() async throws {
        let hub = GlobalStateHub()
        let engine = try await counterPage(hub)
        let bad = [
            "not json at all",
            "[1, 2]",
            #"{"v":1,"storeId":"counter","messageId":"x","seq":2,"type":"teleport","payload":{}}"#,
            #"{"v":1,"storeId":"counter","messageId":"x","seq":2,"type":"apply_mutation"}"#,
            #"{"v":2,"storeId":"counter","messageId":"x","seq":2,"type":"sync_state","payload":{"state":{}}}"#,
            #"{"v":1,"messageId":"x","type":"sync_state","payload":{"state":{}}}"#,
        ]
        for message in bad { try await post(engine, message) }
        let reasons = hub.problems.compactMap { problem -> String? in
            if case .malformedMessage(let reason) = problem.kind { return reason }
            return nil
        }
        #expect(reasons.count == bad.count, "\(hub.problems)")
        #expect(reasons.contains { $0.contains("not valid JSON") })
        #expect(reasons.contains { $0.contains("not a JSON object") })
        #expect(reasons.contains { $0.contains("unknown type \"teleport\"") })
        #expect(reasons.contains { $0.contains("payload") })
        #expect(reasons.contains { $0.contains("version") })
        #expect(reasons.contains { $0.contains("storeId") })
        // The store still works, and the mirror is right (a resync was asked where the store was known).
        try await engine.execute("useCounter().n = 42")
        #expect(hub.state(of: "counter")?["n"] == 42)
        #expect(try await engineState(engine, "counter") == hub.state(of: "counter"))
    }

    @Test func sequenceGapTriggersAResync() async throws {
        let hub = GlobalStateHub()
        let engine = try await counterPage(hub)
        // A message from the future: seq 99 where 2 is expected.
        try await post(engine, #"{"v":1,"storeId":"counter","messageId":"w99","seq":99,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":-1}]}]}}"#)
        try await engine.execute("void 0") // the request_sync is delivered and answered
        #expect(hub.problems.contains { $0.kind == .sequenceGap(expected: 2, received: 99) })
        #expect(hub.state(of: "counter")?["n"] == 1) // the gap's mutation was not applied; the resync restored the truth
        try await engine.execute("useCounter().n = 5")
        #expect(hub.state(of: "counter")?["n"] == 5)
    }

    /// A stop after a post and before the page counted it makes the next message repeat the last
    /// seq (docs/PROTOCOL.md A.4): while the resync is pending that is not a gap; elsewhere it is.
    @Test func aRepeatedSeqIsAGapUnlessAResyncIsPending() async throws {
        let hub = GlobalStateHub()
        // No plugin: the page answers nothing, so the resync stays pending as long as needed.
        let engine = try JavaScriptEngine(configuration: .init(name: "raw"))
        try await hub.attach(engine)
        func write(_ seq: Int, _ n: Int) -> String {
            #"{"v":1,"storeId":"counter","messageId":"w\#(seq)-\#(n)","seq":\#(seq),"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":\#(n)}]}]}}"#
        }
        try await post(engine, #"{"v":1,"storeId":"counter","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":1},"reason":"created"}}"#)
        try await post(engine, write(2, 2))
        hub.requestSync(store: "counter")
        try await post(engine, write(2, 3))
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        #expect(hub.state(of: "counter") == ["n": 2])   // dropped while the resync is pending
        try await post(engine, #"{"v":1,"storeId":"counter","messageId":"w3","seq":3,"type":"sync_state","payload":{"state":{"n":3},"reason":"resync"}}"#)
        try await post(engine, write(3, 4))
        #expect(hub.problems.map(\.kind) == [.sequenceGap(expected: 4, received: 3)])
        await engine.close()
    }

    @Test func operationThatDoesNotApplyTriggersAResync() async throws {
        let hub = GlobalStateHub()
        let engine = try await counterPage(hub)
        try await post(engine, #"{"v":1,"storeId":"counter","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["missing","deep"],"value":1}]}]}}"#)
        try await engine.execute("void 0")
        #expect(hub.problems.contains { if case .operationFailed = $0.kind { true } else { false } })
        #expect(hub.state(of: "counter") == ["n": 1, "items": []])
        try await engine.execute("useCounter().items.push('ok')")
        #expect(hub.state(of: "counter") == ["n": 1, "items": ["ok"]])
    }

    @Test func oversizeMessagesAreRefusedUnreadAndResynced() async throws {
        let hub = GlobalStateHub(configuration: .init(maximumMessageBytes: 2_000))
        let engine = try await counterPage(hub)
        try await engine.execute("useCounter().items.push('x'.repeat(5000))")
        try await engine.execute("void 0")
        #expect(hub.problems.contains { if case .oversize(let bytes, 2_000) = $0.kind { bytes > 5_000 } else { false } })
        // The resync is over the cap too: asked once, not in a loop; the mirror is left as it was.
        #expect(hub.problems.filter { if case .oversize = $0.kind { true } else { false } }.count == 2)
        #expect(hub.state(of: "counter") == ["n": 1, "items": []])
        try await engine.execute("useCounter().items.splice(0, 1); useCounter().n = 3")
        try await engine.execute("void 0")
        // The next message that fits after a resync brings the mirror back.
        hub.requestSync(store: "counter")
        try await engine.execute("void 0")
        #expect(hub.state(of: "counter") == ["n": 3, "items": []])
    }

    @Test func unserialisableStateIsReportedAndTagged() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("""
            class Point { constructor() { this.x = 1; } }
            globalThis.useOdd = defineStore('odd', { state: () => ({
              fn: null, when: new Date(0), tags: new Set(['a']), table: new Map([['k', 1]]), nothing: undefined, big: 10n, nan: NaN, point: null,
            }) });
            useOdd();
            """)
        let state = try #require(hub.state(of: "odd"))
        #expect(state["when"] == ["$type": "Date", "value": "1970-01-01T00:00:00.000Z"])
        #expect(state["tags"] == ["$type": "Set", "values": ["a"]])
        #expect(state["table"] == ["$type": "Map", "entries": [["k", 1]]])
        #expect(state["nothing"] == ["$type": "undefined"])
        #expect(state["big"] == ["$type": "BigInt", "value": "10"])
        #expect(state["nan"] == ["$type": "Number", "value": "NaN"])
        try await engine.execute("useOdd().fn = function () {}; useOdd().point = new Point()")
        let reported = hub.problems.compactMap { problem -> String? in
            if case .reportedByPage("unserializable_state", _, let path) = problem.kind { return path?.dotted }
            return nil
        }
        #expect(reported.contains("fn"), "\(hub.problems)")
        #expect(hub.state(of: "odd")?["fn"] == ["$type": "undefined"])
        #expect(try await engineState(engine, "odd")["when"] == hub.state(of: "odd")?["when"])
    }

    @Test func aPageCannotBeAttachedTwice() async throws {
        let hub = GlobalStateHub()
        let engine = try await counterPage(hub, name: "twice")
        await #expect(throws: StateHubError.pageAlreadyAttached("twice")) { try await hub.attach(engine) }
    }
}

@Suite("Hostile pages", .tags(.engine))
struct HostilePageTests {
    func post(_ engine: JavaScriptEngine, _ message: String) async throws {
        try await engine.execute("window.webkit.messageHandlers.nativeBridge.postMessage(\(JSONValue.string(message).jsonText()))")
    }

    @Test func aWriteFarPastTheEndOfAnArrayFailsInsteadOfAllocating() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("globalThis.useA = defineStore('a', { state: () => ({ list: [] }) }); useA();")
        try await post(engine, #"{"v":1,"storeId":"a","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["list",50000000],"value":1}]}]}}"#)
        try await post(engine, #"{"v":1,"storeId":"a","messageId":"w3","seq":3,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["list","length"],"value":4000000000}]}]}}"#)
        try await engine.execute("void 0")
        #expect(hub.problems.contains { if case .operationFailed = $0.kind { true } else { false } })
        #expect(hub.state(of: "a") == ["list": []]) // restored by the resync
    }

    @Test func oversizeStateDoesNotLoopOnLaterMutations() async throws {
        let recorder = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(maximumMessageBytes: 3_000, trace: recorder))
        let engine = try await makePage(hub)
        try await engine.execute("globalThis.useBig = defineStore('big', { state: () => ({ n: 0, blob: '' }) }); useBig();")
        try await engine.execute("useBig().blob = 'x'.repeat(5000)") // oversize: one resync, itself oversize
        for _ in 0..<5 { try await engine.execute("useBig().n++") }
        try await engine.execute("void 0")
        let requests = recorder.records.filter { $0.type == "request_sync" }.count
        #expect(requests == 1, "request_sync sent \(requests) times")
    }
}
