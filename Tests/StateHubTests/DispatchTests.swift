import Clocks
import JSEngine
import Testing
import Trace
@testable import StateHub

/// A page with one store exercising every way an action can end.
func makeActionsPage(_ hub: GlobalStateHub, name: String = "page") async throws -> JavaScriptEngine {
    let engine = try await makePage(hub, name: name)
    try await engine.execute("""
        globalThis.useActions = defineStore('actions', {
          state: () => ({ n: 0, when: null }),
          actions: {
            add(by) { this.n += by; return this.n; },
            nothing() {},
            none() { return null; },
            async nothingLater() { await null; },
            boom() { throw new TypeError('boom at ' + this.n); },
            async later(by) { await new Promise((r) => setTimeout(r, 5)); this.n += by; return { n: this.n }; },
            async reject() { await null; throw new Error('rejected on purpose'); },
            never() { return new Promise(() => {}); },
            stamp(date) { this.when = date; return date; },
          },
        });
        useActions();
        """, sourceURL: "actions.js")
    return engine
}

@Suite("Dispatch", .tags(.engine))
struct DispatchTests {
    /// A dispatch writes its message's text itself; it must be the text the generic
    /// envelope writes for the same payload, whatever the action's name and arguments hold.
    @Test func dispatchTextIsTheGenericEnvelope() throws {
        let cases: [(action: String, args: [JSONValue])] = [
            ("inc", [.number(1)]),
            ("nothing", []),
            ("quote\"and\\slash\u{1}", [.string("line\nbreak"), .null, .bool(false), .number(-0.5), .number(1e21)]),
            ("unicode é 😀", [["nested": ["a": [1, 2, ["$type": "Date", "value": "1970-01-01T00:00:00.000Z"]]], "z": "é"], .array([]), .object([:])]),
        ]
        for (action, args) in cases {
            try expectSameText(action: action, args: args)
        }
    }

    private func expectSameText(action: String, args: [JSONValue]) throws {
        let own = OutgoingMessage.dispatchText(storeId: "st\"ore", messageId: "n7", action: action, args: args)
        let generic = OutgoingMessage.text(type: .dispatchAction, storeId: "st\"ore", messageId: "n7", payload: ["action": .string(action), "args": .array(args)])
        #expect(own == generic)
        // and the text of the whole envelope written as one object
        let whole: JSONValue = ["v": 1, "storeId": "st\"ore", "messageId": "n7", "type": "dispatch_action",
                                "payload": ["action": .string(action), "args": .array(args)]]
        #expect(own == whole.jsonText())
        let parsed = try JSONValue(parsing: own)
        #expect(parsed["payload"]?["action"] == .string(action))
        #expect(parsed["payload"]?["args"] == .array(args))
    }

    @Test func returnsValuesAndUpdatesTheMirrorFirst() async throws {
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        #expect(try await hub.dispatch(store: "actions", action: "add", args: [2]) == 2)
        // The mutation was mirrored before the result arrived.
        #expect(hub.state(of: "actions")?["n"] == 2)
        let nothing = try await hub.dispatch(store: "actions", action: "nothing")
        #expect(nothing == TaggedValue.undefined && nothing.isUndefined)
        let later = try await hub.dispatch(store: "actions", action: "later", args: [3])
        #expect(later == ["n": 5])
        #expect(hub.state(of: "actions")?["n"] == 5)
        #expect(try await engineState(engine, "actions") == hub.state(of: "actions"))
    }

    /// An action that returns nothing is told apart from one that returns `null`.
    @Test func undefinedAndNullResultsStayApart() async throws {
        let hub = GlobalStateHub()
        _ = try await makeActionsPage(hub)
        let nothing = try await hub.dispatch(store: "actions", action: "nothing")
        let nothingLater = try await hub.dispatch(store: "actions", action: "nothingLater")
        let none = try await hub.dispatch(store: "actions", action: "none")
        #expect(nothing == ["$type": "undefined"])
        #expect(nothingLater == ["$type": "undefined"])
        #expect(nothing.isUndefined && nothingLater.isUndefined)
        #expect(none == .null)
        #expect(!none.isUndefined)
        // Decoded, both are an absent optional.
        #expect(try await hub.dispatch(store: "actions", action: "nothing", as: Int?.self) == nil)
        #expect(try await hub.dispatch(store: "actions", action: "none", as: Int?.self) == nil)
    }

    @Test func decodesTypedResults() async throws {
        struct Counter: Decodable, Sendable, Equatable { var n: Int }
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        let result = try await hub.dispatch(store: "actions", action: "later", args: [4], as: Counter.self)
        #expect(result == Counter(n: 4))
        await #expect(throws: StateHubError.self) { _ = try await hub.dispatch(store: "actions", action: "add", args: [1], as: Counter.self) }
        withExtendedLifetime(engine) {}
    }

    @Test func argumentsKeepTaggedDates() async throws {
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        let date: JSONValue = ["$type": "Date", "value": "2026-11-22T10:00:00.000Z"]
        #expect(try await hub.dispatch(store: "actions", action: "stamp", args: [date]) == date)
        #expect(hub.state(of: "actions")?["when"] == date)
        #expect(try await engine.evaluate("useActions().when instanceof Date") == true)
    }

    @Test func typedErrors() async throws {
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        await #expect(throws: StateHubError.unknownStore("nope")) { try await hub.dispatch(store: "nope", action: "add") }
        await #expect(throws: StateHubError.unknownAction(store: "actions", action: "missing")) { try await hub.dispatch(store: "actions", action: "missing") }
        do {
            try await hub.dispatch(store: "actions", action: "boom")
            Issue.record("boom did not throw")
        } catch StateHubError.actionThrew(let store, let action, let failure) {
            #expect(store == "actions")
            #expect(action == "boom")
            #expect(failure.name == "TypeError")
            #expect(failure.message == "boom at 0")
            #expect(failure.stack.contains("actions.js"))
        }
        do {
            try await hub.dispatch(store: "actions", action: "reject")
            Issue.record("reject did not throw")
        } catch StateHubError.actionThrew(_, _, let failure) {
            #expect(failure.message == "rejected on purpose")
        }
        withExtendedLifetime(engine) {}
    }

    @Test func engineGoneFailsPendingDispatches() async throws {
        let hub = GlobalStateHub(configuration: .init(trace: TraceRecorder(), clock: TestClock()))
        let engine = try await makeActionsPage(hub, name: "closing")
        let pending = Task { try await hub.dispatch(store: "actions", action: "never", timeout: .seconds(10)) }
        await sent("dispatch_action", to: "closing", by: hub)
        await engine.close()
        await #expect(throws: StateHubError.engineGone(store: "actions", pageID: "closing")) { try await pending.value }
        #expect(hub.state(of: "actions") == nil)
        #expect(hub.storeIDs.isEmpty)
        await #expect(throws: StateHubError.unknownStore("actions")) { try await hub.dispatch(store: "actions", action: "add") }
    }

    @Test func disposingTheStoreFailsPendingDispatchesAndRemovesTheMirror() async throws {
        let hub = GlobalStateHub(configuration: .init(trace: TraceRecorder(), clock: TestClock()))
        let engine = try await makeActionsPage(hub, name: "disposing")
        let pending = Task { try await hub.dispatch(store: "actions", action: "never", timeout: .seconds(10)) }
        await sent("dispatch_action", to: "disposing", by: hub)
        try await engine.execute("useActions().$dispose()")
        await #expect(throws: StateHubError.storeDisposed(store: "actions", pageID: "disposing")) { try await pending.value }
        #expect(hub.state(of: "actions") == nil)
        // A new instance announces itself again and starts from the state Pinia kept.
        try await engine.execute("useActions()")
        #expect(hub.state(of: "actions")?["n"] == 0)
        #expect(try await hub.dispatch(store: "actions", action: "add", args: [1]) == 1)
    }

    @Test func callersCanRunOnThePagesOwnExecutor() async throws {
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        let results = try await withTaskExecutorPreference(engine.taskExecutor) {
            var results: [JSONValue] = []
            for _ in 0..<20 { results.append(try await hub.dispatch(store: "actions", action: "add", args: [1])) }
            results.append(try await hub.dispatch(store: "actions", action: "later", args: [1]))
            results.append(try await engine.evaluate("useActions().n"))
            return results
        }
        #expect(Array(results.prefix(20)) == (1...20).map { JSONValue.number(Double($0)) })
        #expect(results[20] == ["n": 21])
        #expect(results[21] == 21)
        #expect(hub.state(of: "actions")?["n"] == 21)
    }

    @Test func manyConcurrentDispatchesResolveToTheirCallers() async throws {
        let hub = GlobalStateHub()
        let engine = try await makeActionsPage(hub)
        try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
            for index in 0..<200 {
                group.addTask { (index, try await hub.dispatch(store: "actions", action: "later", args: [.number(Double(index))])) }
            }
            var total = 0
            for try await (_, result) in group { #expect(result["n"]?.intValue != nil); total += 1 }
            #expect(total == 200)
        }
        #expect(hub.state(of: "actions")?["n"] == .number(Double((0..<200).reduce(0, +))))
        #expect(try await engineState(engine, "actions") == hub.state(of: "actions"))
    }
}
