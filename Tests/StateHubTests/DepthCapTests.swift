import JSEngine
import Testing
import Trace
@testable import StateHub

/// The depth cap (docs/PROTOCOL.md A.8.1): a page cannot drive the hub, its traces or their
/// replay off the stack by nesting a store's state deeper and deeper with small messages.
@Suite("Depth cap", .tags(.unit))
struct DepthCapTests {
    static let cap = JSONValue.maximumStateDepth

    /// A `set` at path ["a", "a", …] (`length` steps) of an empty object.
    static func deeper(seq: Int, length: Int) -> String {
        let path = Array(repeating: #""a""#, count: length).joined(separator: ",")
        return Wire.mutation("deep", seq: seq, ops: #"{"op":"set","path":[\#(path)],"value":{}}"#)
    }

    @Test func writesPastTheCapAreRefusedToldAndResynced() async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let hub = GlobalStateHub(configuration: .init(trace: recorder))
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("deep", seq: 1, state: "{}"), from: "p")
        // Each message nests the state one level deeper: 600 small messages.
        for length in 1...600 { hub.receive(Self.deeper(seq: length + 1, length: length), from: "p") }
        let state = try #require(hub.state(of: "deep"))
        #expect(state.nestingDepth(upTo: 10_000) == Self.cap)
        // Refused once: the refusal asked for a resync and later messages wait for it.
        let refusals = hub.problems.filter { if case .tooDeep = $0.kind { true } else { false } }
        #expect(refusals == [HubProblem(pageID: "p", storeId: "deep", kind: .tooDeep(depth: Self.cap + 1, limit: Self.cap))])
        #expect(page.types == ["error", "request_sync"])
        #expect(page.messages.first?["payload"]?["code"] == "too_deep")
        #expect(page.messages.first?["payload"]?["detail"]?["limit"] == .number(Double(Self.cap)))
        #expect(page.messages.last?["payload"]?["reason"] == "too_deep")

        // The resync that follows is back within the cap: the mirror takes it.
        hub.receive(Wire.syncState("deep", seq: 602, state: #"{"a":1}"#, reason: "resync"), from: "p")
        #expect(hub.state(of: "deep") == ["a": 1])

        // The trace of all that replays without trouble, to the same mirror.
        let records = recorder.records
        #expect(TraceReplay.mirrors(after: records)["deep"] == ["a": 1])
        let replay = TraceReplay()
        var lines = 0
        for record in records where replay.apply(record) != nil { lines += 1 }
        #expect(lines >= Self.cap)
        #expect(replay.problems.contains { $0.kind == .tooDeep(depth: Self.cap + 1, limit: Self.cap) })
    }

    @Test func deepValuesAndSplicesAreMeasuredWithTheirPath() async throws {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("deep", seq: 1, state: #"{"list":[]}"#), from: "p")
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        // path 1 + value 511 = 512: accepted; path 1 + value 512: refused.
        hub.receive(Wire.mutation("deep", seq: 2, ops: #"{"op":"set","path":["v"],"value":\#(nested(Self.cap - 1))}"#), from: "p")
        #expect(hub.state(of: "deep")?["v"] != nil)
        hub.receive(Wire.mutation("deep", seq: 3, ops: #"{"op":"set","path":["w"],"value":\#(nested(Self.cap))}"#), from: "p")
        #expect(hub.state(of: "deep")?["w"] == nil)
        #expect(hub.problems.last?.kind == .tooDeep(depth: Self.cap + 1, limit: Self.cap))
        // A splice counts the array: path 1 + array 1 + item 511 = 513.
        hub.receive(Wire.syncState("deep", seq: 4, state: #"{"list":[]}"#, reason: "resync"), from: "p")
        hub.receive(Wire.mutation("deep", seq: 5, ops: #"{"op":"splice","path":["list"],"index":0,"deleteCount":0,"items":[\#(nested(Self.cap - 1))]}"#), from: "p")
        #expect(hub.state(of: "deep") == ["list": []])
        #expect(hub.problems.last?.kind == .tooDeep(depth: Self.cap + 1, limit: Self.cap))
    }

    @Test func snapshotOverTheCapLeavesTheLastGoodMirror() async throws {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("deep", seq: 1, state: #"{"n":1}"#), from: "p")
        let deep = "{\"x\":" + String(repeating: "[", count: Self.cap) + String(repeating: "]", count: Self.cap) + "}"
        hub.receive(Wire.syncState("deep", seq: 2, state: deep, reason: "resync"), from: "p")
        #expect(hub.state(of: "deep") == ["n": 1])
        // Refused by the hub's state cap (the parser's allowance is derived from it, so it
        // never refuses first), the page told, and asked for at most once, so a page that
        // answers with the same state again does not start a loop.
        #expect(hub.problems == [HubProblem(pageID: "p", storeId: "deep", kind: .tooDeep(depth: Self.cap + 1, limit: Self.cap))])
        #expect(page.types.first == "error")
        hub.receive(Wire.syncState("deep", seq: 3, state: deep, reason: "resync"), from: "p")
        #expect(hub.problems.count == 2)
        #expect(page.types.filter { $0 == "request_sync" }.count <= 1)
        // Writes wait for a snapshot that fits; then the store works again.
        hub.receive(Wire.mutation("deep", seq: 4, ops: #"{"op":"set","path":["n"],"value":2}"#), from: "p")
        #expect(hub.state(of: "deep") == ["n": 1])
        hub.receive(Wire.syncState("deep", seq: 5, state: #"{"n":3}"#, reason: "resync"), from: "p")
        hub.receive(Wire.mutation("deep", seq: 6, ops: #"{"op":"set","path":["n"],"value":4}"#), from: "p")
        #expect(hub.state(of: "deep") == ["n": 4])
    }

    @Test func depthIsMeasuredWithoutRecursion() {
        // 100,000 levels built iteratively: measuring stops at the limit.
        var value: JSONValue = 0
        for _ in 0..<100_000 { value = .array([value]) }
        #expect(value.nestingDepth(upTo: 512) == 513)
        #expect(JSONValue.object(["a": [1, [2]], "b": [:]]).nestingDepth() == 3)
        #expect(JSONValue.number(1).nestingDepth() == 0)
        // Tear it down iteratively too: a recursive deinit of 100,000 levels would overflow.
        while case .array(let elements) = value, let inner = elements.first { value = inner }
    }
}
