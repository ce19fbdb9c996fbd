import JSEngine
import Testing
@testable import StateHub

/// Well-formed messages that break the protocol are refused with a problem
/// and a resync, never applied silently (docs/PROTOCOL.md A.4, A.6).
@Suite("Strict protocol", .tags(.unit))
struct StrictProtocolTests {
    func hostedCounter() async throws -> (GlobalStateHub, RecordingPage) {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("counter", seq: 1, state: #"{"n":1}"#), from: "p")
        #expect(hub.state(of: "counter") == ["n": 1])
        return (hub, page)
    }

    static let setN = #"{"op":"set","path":["n"],"value":99}"#

    @Test(arguments: [nil, 0, -3])
    func mutationWithoutAValidSeqIsRefusedAndResynced(seq: Int?) async throws {
        let (hub, page) = try await hostedCounter()
        hub.receive(Wire.mutation("counter", seq: seq, ops: Self.setN), from: "p")
        #expect(hub.state(of: "counter") == ["n": 1])
        let reason = seq.map { "apply_mutation with seq \($0); seq counts from 1" } ?? "apply_mutation without seq about a store the page hosts"
        #expect(hub.problems == [HubProblem(pageID: "p", storeId: "counter", kind: .protocolViolation(reason))])
        #expect(page.types == ["request_sync"])
        #expect(page.messages.first?["payload"]?["reason"] == "protocol")
        // The answer brings the mirror back; counting goes on from the snapshot's seq.
        hub.receive(Wire.syncState("counter", seq: 2, state: #"{"n":5}"#, reason: "resync"), from: "p")
        hub.receive(Wire.mutation("counter", seq: 3, ops: Self.setN), from: "p")
        #expect(hub.state(of: "counter") == ["n": 99])
        #expect(hub.problems.count == 1)
    }

    @Test func seqIsNotAStringOrFraction() async throws {
        let (hub, _) = try await hostedCounter()
        for bad in [#""seq":"2""#, #""seq":2.5"#] {
            let text = Wire.mutation("counter", seq: 2, ops: Self.setN).replacingOccurrences(of: #""seq":2"#, with: bad)
            hub.receive(text, from: "p")
        }
        #expect(hub.state(of: "counter") == ["n": 1])
        #expect(hub.problems.count == 2)
        #expect(hub.problems.allSatisfy { if case .malformedMessage = $0.kind { true } else { false } })
    }

    @Test func storeDisposedOutOfSequenceKeepsTheStore() async throws {
        let (hub, page) = try await hostedCounter()
        hub.receive(#"{"v":1,"storeId":"counter","messageId":"w9","seq":9,"type":"store_disposed","payload":{}}"#, from: "p")
        #expect(hub.state(of: "counter") == ["n": 1])
        #expect(hub.problems == [HubProblem(pageID: "p", storeId: "counter", kind: .sequenceGap(expected: 2, received: 9))])
        #expect(page.types == ["request_sync"])
        // Without seq: refused the same way (no second request while one is pending).
        hub.receive(#"{"v":1,"storeId":"counter","messageId":"w10","type":"store_disposed","payload":{}}"#, from: "p")
        #expect(hub.state(of: "counter") == ["n": 1])
        #expect(hub.problems.last?.kind == .protocolViolation("store_disposed without seq about a store the page hosts"))
        #expect(page.types == ["request_sync"])
        // In sequence, it disposes.
        hub.receive(Wire.syncState("counter", seq: 11, state: #"{"n":1}"#, reason: "resync"), from: "p")
        hub.receive(#"{"v":1,"storeId":"counter","messageId":"w12","seq":12,"type":"store_disposed","payload":{}}"#, from: "p")
        #expect(hub.state(of: "counter") == nil)
    }

    @Test func nonObjectRootIsRefusedAndResynced() async throws {
        let (hub, page) = try await hostedCounter()
        var seq = 1
        for root in ["[1,2]", "7", "null"] {
            seq += 1
            hub.receive(Wire.mutation("counter", seq: seq, ops: #"{"op":"set","path":[],"value":\#(root)}"#), from: "p")
            #expect(hub.state(of: "counter") == ["n": 1])
            // Each refusal asks for the page's state; its answer closes the episode.
            seq += 1
            hub.receive(Wire.syncState("counter", seq: seq, state: #"{"n":1}"#, reason: "resync"), from: "p")
        }
        #expect(hub.problems.count == 3)
        #expect(hub.problems.allSatisfy { if case .operationFailed(let error) = $0.kind { error.reason.contains("must be an object") } else { false } })
        #expect(page.types == ["request_sync", "request_sync", "request_sync"])
        // A snapshot whose state is not an object: refused, asked once.
        let (other, otherPage) = try await hostedCounter()
        other.receive(Wire.syncState("counter", seq: 2, state: "[1]", reason: "resync"), from: "p")
        other.receive(Wire.syncState("counter", seq: 3, state: "\"text\"", reason: "resync"), from: "p")
        #expect(other.state(of: "counter") == ["n": 1])
        #expect(other.problems.count == 2)
        #expect(otherPage.types == ["request_sync"])
        // A root replaced by an object is fine.
        other.receive(Wire.syncState("counter", seq: 4, state: #"{"n":2}"#, reason: "resync"), from: "p")
        other.receive(Wire.mutation("counter", seq: 5, ops: #"{"op":"set","path":[],"value":{"n":3}}"#), from: "p")
        #expect(other.state(of: "counter") == ["n": 3])
    }

    @Test func resultsWithoutSeqStillAnswerTheirDispatch() async throws {
        let (hub, page) = try await hostedCounter()
        hub.receive(#"{"v":1,"storeId":"counter","messageId":"w2","type":"error","payload":{"code":"unserializable_state","message":"x"}}"#, from: "p")
        #expect(hub.problems.first?.kind == .protocolViolation("error without seq about a store the page hosts"))
        #expect(hub.problems.contains { if case .reportedByPage = $0.kind { true } else { false } })
        #expect(page.types == ["request_sync"])
    }
}
