import JSEngine
import Testing
@testable import StateHub

/// The padding cap (docs/PROTOCOL.md A.8.2): small messages cannot grow a mirror by millions of
/// `null`s written past arrays' ends, so an app embedding the hub without a memory limit is safe.
@Suite("Padding cap", .tags(.unit))
struct PaddingCapTests {
    static let perMessage = JSONValue.maximumPaddingPerMessage
    static let perStore = JSONValue.maximumPaddingPerStore

    /// A `set` of `pad[index]`.
    static func write(_ index: Int) -> String { #"{"op":"set","path":["pad",\#(index)],"value":1}"# }

    static func hub() async throws -> (GlobalStateHub, RecordingPage) {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("big", seq: 1, state: #"{"pad":[]}"#), from: "p")
        return (hub, page)
    }

    static func paddingProblems(_ hub: GlobalStateHub) -> [HubProblem] {
        hub.problems.filter { if case .paddingOverLimit = $0.kind { true } else { false } }
    }

    /// Two operations of 60,000 `null`s each: within the per-operation bound, over the
    /// message's. Refused whole, a resync requested; the mirror is unchanged.
    @Test func aMessagePastThePerMessageBoundIsRefusedWhole() async throws {
        let (hub, page) = try await Self.hub()
        hub.receive(Wire.mutation("big", seq: 2, ops: Self.write(59_999) + "," + Self.write(119_999)), from: "p")
        #expect(hub.state(of: "big") == ["pad": []])
        #expect(Self.paddingProblems(hub) == [HubProblem(pageID: "p", storeId: "big",
                                                         kind: .paddingOverLimit(nulls: 119_998, limit: Self.perMessage, perStore: false))])
        #expect(page.types == ["request_sync"])
        #expect(page.messages.last?["payload"]?["reason"] == "padding")
        // The bound itself is allowed: the same array padded to exactly 100,000 in one message.
        hub.receive(Wire.syncState("big", seq: 3, state: #"{"pad":[]}"#, reason: "resync"), from: "p")
        hub.receive(Wire.mutation("big", seq: 4, ops: Self.write(50_000) + "," + Self.write(Self.perMessage)), from: "p")
        #expect(hub.state(of: "big")?["pad"]?.arrayValue?.count == Self.perMessage + 1)
    }

    /// Messages each within the per-message bound: the store stops at 1,000,000 `null`s of
    /// padding; a whole state starts the count again.
    @Test func aStorePastThePerStoreBoundRefusesMorePaddingUntilAWholeState() async throws {
        let (hub, page) = try await Self.hub()
        let messages = Self.perStore / Self.perMessage
        var end = -1
        for seq in 2..<(2 + messages) {
            end += Self.perMessage + 1
            hub.receive(Wire.mutation("big", seq: seq, ops: Self.write(end)), from: "p")
        }
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        #expect(hub.state(of: "big")?["pad"]?.arrayValue?.count == end + 1)
        // One more null of padding is past the store's bound; a write inside the array still applies.
        hub.receive(Wire.mutation("big", seq: 2 + messages, ops: Self.write(end + 2)), from: "p")
        #expect(Self.paddingProblems(hub) == [HubProblem(pageID: "p", storeId: "big",
                                                         kind: .paddingOverLimit(nulls: Self.perStore + 1, limit: Self.perStore, perStore: true))])
        #expect(page.types == ["request_sync"])
        #expect(hub.state(of: "big")?["pad"]?.arrayValue?.count == end + 1)

        hub.receive(Wire.syncState("big", seq: 3 + messages, state: #"{"pad":[1]}"#, reason: "resync"), from: "p")
        hub.receive(Wire.mutation("big", seq: 4 + messages, ops: Self.write(Self.perMessage)), from: "p")
        #expect(hub.state(of: "big")?["pad"]?.arrayValue?.count == Self.perMessage + 1)
        #expect(Self.paddingProblems(hub).count == 1)
    }

    /// `length` pads like a write past the end; writes inside an array and to objects add none.
    @Test func lengthPadsAndOtherWritesDoNot() {
        let state: JSONValue = ["pad": [1, 2], "o": ["k": 1]]
        #expect(state.padding(of: .set(path: [.key("pad"), .key("length")], value: 10)) == 8)
        #expect(state.padding(of: .set(path: [.key("pad"), .index(5)], value: 1)) == 3)
        #expect(state.padding(of: .set(path: [.key("pad"), .key("7")], value: 1)) == 5)
        #expect(state.padding(of: .set(path: [.key("pad"), .index(1)], value: 1)) == 0)
        #expect(state.padding(of: .set(path: [.key("o"), .key("9")], value: 1)) == 0)
        #expect(state.padding(of: .set(path: [.key("missing"), .index(9)], value: 1)) == 0)
        #expect(state.padding(of: .delete(path: [.key("pad"), .index(9)])) == 0)
    }
}
