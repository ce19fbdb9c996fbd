import StateHubJSON
import Testing
@testable import Trace

/// The timeline model, now in Trace (the CLI's `trace show` / `trace view` and the server's
/// console build it): operations are read and applied with StateHubJSON's own code, so a trace
/// from anywhere — an upload to the console — cannot make it trap.
@Suite(.tags(.unit)) struct TimelineModelTests {
    static func record(_ step: Int, _ type: String, _ message: String, direction: TraceDirection = .webToNative) -> TraceRecord {
        TraceRecord(step: step, time: UInt64(step) * 1_000, direction: direction, channel: TraceChannel.nativeBridge,
                    engine: "shop", store: "cart", type: type, message: message)
    }

    @Test func opsAreAppliedInOrderUnderTheirAction() throws {
        let model = try TimelineModel(records: [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{"items":[],"total":0}}}"#),
            Self.record(1, "dispatch_action", #"{"type":"dispatch_action","messageId":"n1","payload":{"action":"add","args":[{"id":"p1"}]}}"#,
                        direction: .nativeToWeb),
            Self.record(2, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"splice","path":["items"],"index":0,"deleteCount":0,"items":[{"id":"p1"}]},{"op":"set","path":["total"],"value":3}]}]}}"#),
            Self.record(3, "action_result", #"{"type":"action_result","messageId":"n1","payload":{"ok":true}}"#),
        ])
        #expect(model.steps.map(\.action) == [nil, "cart.add", "cart.add", "cart.add"])
        let changes = model.steps[2].changes.map { "\($0.kind) \($0.text)" }
        #expect(changes == [#"splice items[0…]: [] → [{"id":"p1"}]"#, "set total: 0 → 3"])
        #expect(model.steps[2].ops.count == 2 && model.steps[2].refused == nil)
    }

    /// Hostile ops (a negative splice index or count, a path far past an array's end) are what
    /// the hub refuses: not applied, not shown, and no trap (the CLI's own reader let a negative
    /// index through to `replaceSubrange` before the model moved).
    @Test func hostileOpsAreSkippedOrRefusedNeverATrap() throws {
        let model = try TimelineModel(records: [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{"items":[1,2,3]}}}"#),
            Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"splice","path":["items"],"index":-1,"deleteCount":-5,"items":[]},{"op":"splice","path":["items"],"index":1,"deleteCount":9007199254740992,"items":[]}]}]}}"#),
            Self.record(2, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["items",9000000000],"value":1}]}]}}"#),
            Self.record(3, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["nothing","deeper"],"value":1}]}]}}"#),
        ])
        // The negative splice is not an op; the huge deleteCount clips to the array, as in JavaScript.
        #expect(model.steps[1].changes.map(\.text) == ["items[1…]: [2,3] → []"])
        #expect(model.steps[2].refused != nil, "a write 9e9 past the end is refused, as the hub refuses it")
        #expect(model.steps[3].refused != nil && model.steps[3].changes.allSatisfy(\.refused))
    }

    /// The bounds: the steps' JSON and the padding the ops
    /// add are counted as the model is built, and the model is refused past either, naming it.
    @Test func theModelIsRefusedPastItsBounds() throws {
        let big = String(repeating: "x", count: 1_000)
        let deletes = Array(repeating: #"{"op":"delete","path":["a"]}"#, count: 50).joined(separator: ",")
        let amplified = [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":{"a":"\#(big)"}}}"#),
            Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["a","x"],"value":1},\#(deletes)]}]}}"#),
        ]
        let limits = TimelineModel.Limits(answerBytes: 20_000, paddingNulls: 100)
        #expect(throws: TimelineModelError(bound: .answerBytes, limit: 20_000, record: 2, step: 1)) {
            try TimelineModel(records: amplified, limits: limits)
        }
        let grow = [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":{"arr":[]}}}"#),
            Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["arr",60],"value":1},{"op":"set","path":["arr","length"],"value":100}]}]}}"#),
            Self.record(2, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["arr",102],"value":1}]}]}}"#),
        ]
        // 60 + 39 nulls pass; the write at 102 adds 2 more and passes 100.
        #expect(throws: TimelineModelError(bound: .paddingNulls, limit: 100, record: 3, step: 2)) {
            try TimelineModel(records: grow, limits: limits)
        }
        #expect(try TimelineModel(records: Array(grow.prefix(2)), limits: limits).steps.count == 2)
        // The default bounds are those of an 8 MiB trace at least.
        #expect(TimelineModel.Limits.forRecords([]) == TimelineModel.Limits(answerBytes: 64 << 20, paddingNulls: 1 << 20))
    }

    /// The answer's count is exact: what `jsonText()` writes, escapes and numbers included.
    @Test func theCountIsTheTextsLength() throws {
        let value = try JSONValue(parsing: #"{"a\n\"":[1,-0.5,1e21,1e-7,true,false,null,"é\u0001\t"],"b":{},"c":[],"d":123456789012}"#)
        let model = try TimelineModel(records: [Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":\#(value.jsonText())}}"#)])
        let state = try #require(model.steps[0].snapshot)
        #expect(TimelineModel.textCount(state, limit: .max) == state.jsonText().utf8.count)
    }

    /// A refused message is undone in place: the state after it is the state before it, key order
    /// included, whatever its ops did before the one that failed.
    @Test func aRefusedMessageLeavesTheStateAsItWas() throws {
        let original = #"{"b":1,"a":{"x":[1,2,3],"y":{"k":"v"}},"c":"k","1":"one"}"#
        let ops = [
            #"{"op":"delete","path":["b"]}"#, #"{"op":"set","path":["a","x",5],"value":7}"#,
            #"{"op":"set","path":["a","x","length"],"value":1}"#, #"{"op":"splice","path":["a","x"],"index":0,"deleteCount":1,"items":[9,9]}"#,
            #"{"op":"set","path":["new"],"value":1}"#, #"{"op":"set","path":["c"],"value":"z"}"#, #"{"op":"delete","path":["a","x",0]}"#,
            #"{"op":"set","path":["0"],"value":0}"#, #"{"op":"delete","path":["a","y"]}"#, #"{"op":"set","path":["a","x","length"],"value":9}"#,
            #"{"op":"set","path":["nothing","deeper"],"value":1}"#, #"{"op":"set","path":["after"],"value":1}"#,
        ].joined(separator: ",")
        let model = try TimelineModel(records: [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":\#(original)}}"#),
            Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[\#(ops)]}]}}"#),
            Self.record(2, "sync_state", #"{"type":"sync_state","payload":{"state":{}}}"#),
        ])
        #expect(model.steps[1].refused != nil && model.steps[1].ops.isEmpty)
        let before = try JSONValue(parsing: original)
        #expect(model.steps[2].changes.first?.old?.jsonText() == before.jsonText(), "\(model.steps[2].changes.first?.old?.jsonText() ?? "nil")")
        // A refused root replacement too.
        let root = try TimelineModel(records: [
            Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":\#(original)}}"#),
            Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":[],"value":{"z":1}},{"op":"delete","path":[]}]}]}}"#),
            Self.record(2, "sync_state", #"{"type":"sync_state","payload":{"state":{}}}"#),
        ])
        #expect(root.steps[2].changes.first?.old?.jsonText() == before.jsonText())
    }

    /// Each message changes the state in place (3,000 messages into 200,000 elements took 4.1 s
    /// when each copied the array, 0.2 s in place: `statehub trace show` of such a trace shows
    /// it). Checked here for what it gives, not for its time (no timed tests): every step has
    /// its own change, old and new value.
    @Test func messagesIntoALargeStateDoNotCopyIt() throws {
        let big = "[" + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]"
        var records = [Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"state":{"arr":\#(big)}}}"#)]
        for index in 1...3_000 {
            records.append(Self.record(index, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["arr",\#(index)],"value":1}]}]}}"#))
        }
        let model = try TimelineModel(records: records)
        #expect(model.steps.count == 3_001)
        let wrong = model.steps.dropFirst().enumerated().filter { offset, step in
            step.changes.map { "\($0.path) \($0.old?.jsonText() ?? "-") \($0.new?.jsonText() ?? "-")" } != ["arr.\(offset + 1) 0 1"]
        }
        let firstWrong = wrong.first.map { "step \($0.element.step): \($0.element.changes)" } ?? ""
        #expect(wrong.count == 0, "\(firstWrong)")
    }
}
