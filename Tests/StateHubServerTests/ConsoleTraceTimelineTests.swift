import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing
import Trace

/// `POST /admin/console/trace-timeline`, the console's Traces screen (docs/console.md): a trace
/// read as the timeline `statehub trace view` shows, with the line named when it cannot be read.
/// The screen in a browser is scripts/test-console.py.
@Suite(.tags(.integration)) struct ConsoleTraceTimelineTests {
    struct Change: Decodable, Equatable {
        var path: String
        var kind: String
    }

    struct Step: Decodable, Equatable {
        var step: Int
        var type: String
        var store: String?
        var action: String?
        var changes: [Change]
    }

    struct Timeline: Decodable {
        var records: Int
        var cutLine: Int?
        var steps: [Step]
    }

    struct ErrorBody: Decodable {
        var error: String
        var message: String
    }

    static func record(_ step: Int, _ type: String, _ message: String, store: String = "cart",
                       direction: TraceDirection = .webToNative) -> TraceRecord {
        TraceRecord(step: step, time: UInt64(step) * 1_000, direction: direction, channel: TraceChannel.nativeBridge,
                    engine: "shop", store: store, type: type, message: message)
    }

    /// A store created, an action dispatched from native, its write and its result: the NDJSON the
    /// recorder writes (TraceFile.encode is its line writer).
    static let trace = TraceFile.encode([
        record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{"items":[]}}}"#),
        record(1, "dispatch_action", #"{"type":"dispatch_action","messageId":"n1","payload":{"action":"add","args":["p1"]}}"#,
               direction: .nativeToWeb),
        record(2, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"splice","path":["items"],"index":0,"deleteCount":0,"items":["p1"]}]}]}}"#),
        record(3, "action_result", #"{"type":"action_result","messageId":"n1","payload":{"ok":true}}"#),
    ])

    static func post(_ client: some TestClientProtocol, _ body: Data, token: String = TestServer.token) async throws -> TestResponse {
        try await client.execute(uri: "/admin/console/trace-timeline", method: .post,
                                 headers: [.authorization: "Bearer \(token)", .contentType: "application/x-ndjson"],
                                 body: ByteBuffer(bytes: body))
    }

    @Test func aTraceIsAnsweredAsItsTimelineAndNothingIsStored() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let answer = try await Self.post(client, Self.trace)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json")
            let timeline = try ConsoleRoutesTests.decode(Timeline.self, answer)
            #expect(timeline.records == 4 && timeline.cutLine == nil)
            #expect(timeline.steps == [
                Step(step: 0, type: "sync_state", store: "cart", action: nil, changes: [Change(path: "(root)", kind: "snapshot")]),
                Step(step: 1, type: "dispatch_action", store: "cart", action: "cart.add", changes: []),
                Step(step: 2, type: "apply_mutation", store: "cart", action: "cart.add", changes: [Change(path: "items[0…]", kind: "splice")]),
                Step(step: 3, type: "action_result", store: "cart", action: "cart.add", changes: []),
            ])
            let audit = String(buffer: try await client.admin(.get, "/admin/console/audit").body)
            #expect(audit == #"{"entries":[]}"#, "reading a trace is no change")
            #expect(try await Self.post(client, Self.trace, token: "wrong").status == .unauthorized)
        }
    }

    /// A killed recorder leaves its last line cut: the records before it are read, the line is named.
    @Test func aCutLastLineIsLeftOutAndNamed() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let answer = try await Self.post(client, Self.trace + Data(#"{"channel":"nativeBridge","direction":"web_to"#.utf8))
            #expect(answer.status == .ok)
            let timeline = try ConsoleRoutesTests.decode(Timeline.self, answer)
            #expect(timeline.records == 4 && timeline.cutLine == 5 && timeline.steps.count == 4)
        }
    }

    @Test func aLineThatIsNoRecordIsRefusedNamingTheLine() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let lines = String(decoding: Self.trace, as: UTF8.self).split(separator: "\n").map(String.init)
            let cases: [(String, Int, String)] = [
                (lines[0] + "\n<script>alert(1)</script>\n" + lines[1] + "\n", 2, "is not valid JSON"),
                (lines[0] + "\n" + lines[1] + "\n" + #"{"step":2}"# + "\n", 3, #"lacks field"#),
                ("[1]\n", 1, "is not a JSON object"),
            ]
            for (broken, line, why) in cases {
                let answer = try await Self.post(client, Data(broken.utf8))
                #expect(answer.status == .unprocessableContent, "line \(line)")
                let body = try ConsoleRoutesTests.decode(ErrorBody.self, answer)
                #expect(body.error == "invalid-trace")
                #expect(body.message.hasPrefix("line \(line) of the trace \(why)"), "\(body.message)")
            }
            let empty = try ConsoleRoutesTests.decode(Timeline.self, try await Self.post(client, Data()))
            #expect(empty.records == 0 && empty.steps.isEmpty)
        }
    }

    @Test func aTraceOverTheCapIsRefusedWith413() async throws {
        try await TestServer.sqlite(configuration: .init(maxTraceBytes: 600)).test(.router) { client in
            #expect(Self.trace.count > 600)
            let answer = try await Self.post(client, Self.trace)
            #expect(answer.status == .contentTooLarge)
            #expect(try ConsoleRoutesTests.decode(ErrorBody.self, answer).error == "too-large")
            #expect(try await Self.post(client, Self.trace.prefix(500)).status == .ok, "under the cap: read (its last line cut)")
        }
    }

    /// A refused `apply_mutation` followed by thousands of ops each showing the whole big state
    /// as `old` would make a 336 KB request a 525 MB answer, and writes 100,000 past an array's
    /// end would grow the replayed state by 100,000 nulls each (90 KB of trace could abort the
    /// server). Both are refused with `422 timeline-too-large` naming the bound.
    @Test func aTimelinePastItsBoundsIsRefusedNamingTheBound() async throws {
        let cap = 64 << 10
        try await TestServer.sqlite(configuration: .init(maxTraceBytes: cap)).test(.router) { client in
            let big = String(repeating: "x", count: 16 << 10)
            let ops = [#"{"op":"set","path":["a","x","y"],"value":1}"#] + Array(repeating: #"{"op":"delete","path":["a"]}"#, count: 40)
            let amplified = TraceFile.encode([
                Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{"a":"\#(big)"}}}"#),
                Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[\#(ops.joined(separator: ","))]}]}}"#),
            ])
            #expect(amplified.count < cap / 2, "the request is well under the cap")
            let answer = try await Self.post(client, amplified)
            #expect(answer.status == .unprocessableContent)
            let body = try ConsoleRoutesTests.decode(ErrorBody.self, answer)
            #expect(body.error == "timeline-too-large")
            #expect(body.message.contains("larger than \(8 * cap) bytes") && body.message.contains("record 2 (step 1)"), "\(body.message)")

            func grown(_ writes: Int) -> Data {
                let grow = (1...writes).map { #"{"op":"set","path":["arr",\#($0 * 1_000)],"value":1}"# }.joined(separator: ",")
                return TraceFile.encode([
                    Self.record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{"arr":[]}}}"#),
                    Self.record(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[\#(grow)]}]}}"#),
                ])
            }
            let refused = try await Self.post(client, grown(12))
            #expect(refused.status == .unprocessableContent)
            let why = try ConsoleRoutesTests.decode(ErrorBody.self, refused)
            #expect(why.error == "timeline-too-large")
            #expect(why.message.contains("more than \(cap / 8) nulls in all"), "\(why.message)")
            // Under the bound (6 writes add about 6,000 nulls; the bound is 8,192) it is answered.
            #expect(try await Self.post(client, grown(6)).status == .ok)
        }
    }
}
