import JSEngine
import Testing
import Trace
@testable import StateHub

@Suite("Operations on mirrors", .tags(.unit))
struct MutationOpTests {
    func apply(_ ops: [MutationOp], to value: JSONValue) throws -> JSONValue {
        var value = value
        for op in ops { try value.apply(op) }
        return value
    }

    @Test func setCreatesReplacesAppendsAndPads() throws {
        let start: JSONValue = ["a": 1, "list": [1, 2]]
        #expect(try apply([.set(path: [.key("a")], value: 2)], to: start) == ["a": 2, "list": [1, 2]])
        #expect(try apply([.set(path: [.key("b")], value: true)], to: start) == ["a": 1, "list": [1, 2], "b": true])
        #expect(try apply([.set(path: [.key("list"), .index(2)], value: 3)], to: start) == ["a": 1, "list": [1, 2, 3]])
        #expect(try apply([.set(path: [.key("list"), .index(4)], value: 5)], to: start) == ["a": 1, "list": [1, 2, nil, nil, 5]])
        #expect(try apply([.set(path: [.key("list"), .key("length")], value: 1)], to: start) == ["a": 1, "list": [1]])
        #expect(try apply([.set(path: [.key("list"), .key("length")], value: 3)], to: start) == ["a": 1, "list": [1, 2, nil]])
        #expect(try apply([.set(path: [], value: ["fresh": []])], to: start) == ["fresh": []])
    }

    @Test func integerLikeKeysGoWhereJavaScriptPutsThem() throws {
        let start: JSONValue = ["2": "two", "b": "b"]
        let result = try apply([.set(path: [.key("10")], value: 10), .set(path: [.key("1")], value: 1), .set(path: [.key("a")], value: "a"), .set(path: [.key("01")], value: "not an index")], to: start)
        #expect(result.objectValue.map { Array($0.keys) } == ["1", "2", "10", "b", "a", "01"])
    }

    @Test func deleteAndSplice() throws {
        let start: JSONValue = ["a": 1, "list": [1, 2, 3, 4]]
        #expect(try apply([.delete(path: [.key("a")])], to: start) == ["list": [1, 2, 3, 4]])
        #expect(try apply([.delete(path: [.key("list"), .index(1)])], to: start) == ["a": 1, "list": [1, nil, 3, 4]])
        #expect(try apply([.splice(path: [.key("list")], index: 1, deleteCount: 2, items: ["x"])], to: start) == ["a": 1, "list": [1, "x", 4]])
        #expect(try apply([.splice(path: [.key("list")], index: 10, deleteCount: 10, items: ["end"])], to: start) == ["a": 1, "list": [1, 2, 3, 4, "end"]])
    }

    @Test func failuresNameThePathAndLeaveTheValueAlone() throws {
        let start: JSONValue = ["a": 1, "list": [1]]
        var value = start
        #expect(throws: MutationOpError.self) { try value.apply(.set(path: [.key("missing"), .key("x")], value: 1)) }
        #expect(throws: MutationOpError.self) { try value.apply(.splice(path: [.key("a")], index: 0, deleteCount: 0, items: [])) }
        #expect(throws: MutationOpError.self) { try value.apply(.set(path: [.key("list"), .index(5), .key("x")], value: 1)) }
        #expect(throws: MutationOpError.self) { try value.apply(.delete(path: [])) }
        #expect(value == start)
        do {
            try value.apply(.set(path: [.key("a"), .key("deep")], value: 1))
        } catch {
            #expect(error.path == [.key("a"), .key("deep")])
        }
    }

    @Test func wireFormRoundTripsAndRejectsBadOps() throws {
        let ops: [MutationOp] = [
            .set(path: [.key("items"), .index(0), .key("qty")], value: 3),
            .delete(path: [.key("legacy")]),
            .splice(path: [.key("items")], index: 1, deleteCount: 0, items: [["sku": "B7"]]),
        ]
        for op in ops { #expect(try MutationOp(wire: op.wire) == op) }
        let bad: [JSONValue] = [
            ["op": "set", "path": ["a"]],
            ["op": "move", "path": []],
            ["op": "splice", "path": ["a"], "index": -1, "deleteCount": 0, "items": []],
            ["op": "set", "path": [1.5], "value": 1],
            ["path": ["a"]],
            "set",
        ]
        for value in bad { #expect(throws: MutationOpError.self) { try MutationOp(wire: value) } }
    }

    @Test func untaggingForCodable() {
        let tagged: JSONValue = [
            "when": ["$type": "Date", "value": "2026-11-22T10:00:00.000Z"],
            "gone": ["$type": "undefined"],
            "big": ["$type": "BigInt", "value": "12"],
            "huge": ["$type": "BigInt", "value": "123456789012345678901234567890"],
            "tags": ["$type": "Set", "values": ["a"]],
            "table": ["$type": "Map", "entries": [["k", 1]]],
            "pairs": ["$type": "Map", "entries": [[1, "one"]]],
            "escaped": ["$type": "Object", "value": ["$type": "user data"]],
            "inf": ["$type": "Number", "value": "Infinity"],
        ]
        #expect(tagged.untagged() == [
            "when": "2026-11-22T10:00:00.000Z", "big": 12, "huge": "123456789012345678901234567890",
            "tags": ["a"], "table": ["k": 1], "pairs": [[1, "one"]], "escaped": ["$type": "user data"], "inf": "Infinity",
        ])
    }
}

@Suite("Trace and replay", .tags(.engine))
struct TraceReplayTests {
    @Test func everyCrossingIsRecordedAndReplayRebuildsTheMirrors() async throws {
        let recorder = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(trace: recorder))
        let engine = try await makePage(hub)
        try await engine.execute(try #require(JSSourcesFile.cart))
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p2", "name": "Ink", "price": 3, "qty": 1]])
        let records = recorder.records
        #expect(records.map(\.type) == ["sync_state", "dispatch_action", "apply_mutation", "action_result", "dispatch_action", "apply_mutation", "action_result"])
        #expect(records.allSatisfy { $0.channel == "nativeBridge" && $0.engine == "page" && $0.store == "cart" && $0.size == $0.message.utf8.count })
        #expect(records.filter { $0.direction == .webToNative }.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Replaying rebuilds the same mirrors, at the end and at any step.
        #expect(TraceReplay.mirrors(after: records) == ["cart": try #require(hub.state(of: "cart"))])
        #expect(TraceReplay.mirrors(after: records, until: 2)["cart"]?["items"]?.arrayValue?.count == 1)
        #expect(TraceReplay.mirrors(after: records, until: 0)["cart"] == ["items": []])
        let replay = TraceReplay()
        let descriptions = records.map { replay.apply($0) }
        #expect(descriptions[2]?.contains("cart.items.splice(0, 0") == true)
        #expect(descriptions[1] == #"dispatch cart.add({"id":"p1","name":"Pen","price":1.5,"qty":2})"#)
    }
}

@Suite("Store message decoding", .tags(.unit))
struct StoreMessageDecodingTests {
    static let messages = [
        #"{"v":1,"storeId":"cart","messageId":"w2","seq":2,"ack":"n-4","type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"splice","path":["items"],"index":1,"deleteCount":0,"items":[{"sku":"B7","qty":1}]},{"op":"set","path":["items",0,"qty"],"value":3}]},{"type":"patch object","ops":[{"op":"delete","path":["legacy"]}]}]}}"#,
        #"{ "v" : 1 , "storeId" : "c\u0061rt", "messageId": 7, "seq": 3, "type": "apply_mutation", "payload": { "mutations": [ ] } }"#,
        #"{"v":1,"storeId":"cart","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"b":1,"2":0},"reason":"created"}}"#,
        // payload before type, and an unknown field: the generic path reads these.
        #"{"payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":1}]}]},"type":"apply_mutation","storeId":"cart","seq":4,"extra":{"x":[1]}}"#,
        #"{"v":1,"storeId":"cart","messageId":"w5","seq":5,"type":"apply_mutation","payload":{"mutations":[{"ops":[{"path":["n"],"value":2,"op":"set"}],"type":"direct"}]}}"#,
        // A mutation tagged with the running action (PROTOCOL.md A.5.2).
        #"{"v":1,"storeId":"cart","messageId":"w6","seq":6,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","action":"add","ops":[{"op":"set","path":["n"],"value":3}]}]}}"#,
    ]

    @Test(arguments: messages)
    func oneDecoderAgreesWithTheGenericParser(text: String) throws {
        let fast = try StoreMessage(text: text)
        let generic = try StoreMessage(parsing: text)
        #expect(fast.type == generic.type)
        #expect(fast.storeId == generic.storeId)
        #expect(fast.messageId == generic.messageId)
        #expect(fast.seq == generic.seq)
        #expect(fast.ack == generic.ack)
        #expect(try fast.mutations?.get() == generic.mutations?.get())
        if fast.type != .applyMutation { #expect(fast.payload == generic.payload) }
    }

    @Test func theDecoderTakesThePluginShapeItself() {
        #expect(StoreMessageDecoder.decode(Self.messages[0]) != nil)
        #expect(StoreMessageDecoder.decode(Self.messages[3]) == nil) // payload before type: generic path
        #expect(StoreMessageDecoder.decode(Self.messages[5]) != nil) // action-tagged: still the fast path
    }

    @Test func badOperationsAreReportedByTheGenericPath() throws {
        let text = #"{"v":1,"storeId":"cart","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"teleport","path":["n"]}]}]}}"#
        let message = try StoreMessage(text: text)
        guard case .failure(let error)? = message.mutations else {
            Issue.record("expected a failure, got \(String(describing: message.mutations))")
            return
        }
        #expect(error.reason.contains("unknown op"))
        #expect(throws: StoreMessageError.self) { try StoreMessage(text: #"{"v":1,"storeId":"cart","type":"apply_mutation"}"#) }
    }
}
