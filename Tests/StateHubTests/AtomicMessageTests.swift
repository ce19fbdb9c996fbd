import JSEngine
import Testing
@testable import StateHub

/// A message applies whole or not at all, and envelope
/// strings that are not valid Unicode are refused (docs/PROTOCOL.md A.6, A.1).
@Suite("Atomic messages and valid store ids", .tags(.engine))
struct AtomicMessageTests {
    func hosted(_ state: String) async throws -> (GlobalStateHub, RecordingPage) {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("s", seq: 1, state: state), from: "p")
        return (hub, page)
    }

    /// Every kind of operation before the failing one is undone: object keys set, added and
    /// deleted (key order kept), array elements set, padded, spliced, lengths changed.
    @Test func aFailingOpLeavesTheMirrorAsItWas() async throws {
        let start = #"{"a":1,"b":{"c":[1,2,3,4]},"2":"two","d":"x","list":[{"k":1},{"k":2}]}"#
        let (hub, page) = try await hosted(start)
        let before = try #require(hub.state(of: "s"))
        let changes = hub.changes(of: "s")
        let ops = [
            #"{"op":"set","path":["a"],"value":10}"#,
            #"{"op":"set","path":["new"],"value":true}"#,
            #"{"op":"set","path":["1"],"value":"one"}"#,
            #"{"op":"delete","path":["d"]}"#,
            #"{"op":"set","path":["b","c",1],"value":20}"#,
            #"{"op":"set","path":["b","c",6],"value":7}"#,
            #"{"op":"splice","path":["b","c"],"index":0,"deleteCount":2,"items":["x","y","z"]}"#,
            #"{"op":"set","path":["list","length"],"value":0}"#,
            #"{"op":"set","path":["b","c","length"],"value":1}"#,
            #"{"op":"delete","path":["b"]}"#,
            #"{"op":"set","path":["missing","deep"],"value":1}"#,
        ].joined(separator: ",")
        hub.receive(Wire.mutation("s", seq: 2, ops: ops), from: "p")
        let after = try #require(hub.state(of: "s"))
        #expect(after == before)
        #expect(after.jsonText() == before.jsonText(), "key order kept")
        #expect(hub.problems.count == 1)
        #expect(hub.problems.allSatisfy { if case .operationFailed = $0.kind { true } else { false } })
        #expect(page.types == ["request_sync"])
        // Nothing changed, so nothing is announced.
        hub.receive(Wire.syncState("s", seq: 2, state: #"{"a":2}"#, reason: "resync"), from: "p")
        var iterator = changes.makeAsyncIterator()
        let current = await iterator.next()
        #expect(current?.state == before)
        let next = await iterator.next()
        #expect(next?.state == ["a": 2], "the failed message announced no change")
    }

    /// The same operations without the failing one apply, so the undo above is what kept the mirror.
    @Test func theSameOpsWithoutAFailureApply() async throws {
        let (hub, _) = try await hosted(#"{"a":1,"d":"x"}"#)
        hub.receive(Wire.mutation("s", seq: 2, ops: #"{"op":"set","path":["a"],"value":10},{"op":"delete","path":["d"]}"#), from: "p")
        #expect(hub.state(of: "s") == ["a": 10])
        #expect(hub.problems.isEmpty)
    }

    /// `'\ud800'` and `'\ufffd'` were one mirror: a store id with a lone surrogate is refused, named.
    @Test(arguments: ["storeId", "messageId", "ack"])
    func envelopeStringsWithLoneSurrogatesAreRefused(field: String) async throws {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(Wire.syncState("\u{FFFD}", seq: 1, state: #"{"n":1}"#), from: "p")
        var text = #"{"v":1,"storeId":"\ud800","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":2},"reason":"created"}}"#
        if field == "messageId" { text = text.replacingOccurrences(of: #""storeId":"\ud800","messageId":"w1""#, with: #""storeId":"other","messageId":"\udc00x""#) }
        if field == "ack" { text = text.replacingOccurrences(of: #""storeId":"\ud800","messageId":"w1""#, with: #""storeId":"other","messageId":"w1","ack":"n\ud800""#) }
        hub.receive(text, from: "p")
        #expect(hub.state(of: "\u{FFFD}") == ["n": 1])
        #expect(hub.storeIDs == ["\u{FFFD}"])
        #expect(hub.problems.count == 1)
        #expect(hub.problems.first?.description.contains("field \"\(field)\" is not valid Unicode") == true, "\(hub.problems)")
    }

    /// A lone surrogate in the state itself is not refused (a page's string may hold one): it
    /// becomes U+FFFD in the mirror, as before.
    @Test func loneSurrogatesInStateValuesAreReplaced() async throws {
        let (hub, _) = try await hosted(#"{"t":"a\ud800b"}"#)
        #expect(hub.state(of: "s") == ["t": "a\u{FFFD}b"])
        #expect(hub.problems.isEmpty)
    }

    /// Through a real engine: a raw lone surrogate in a posted string reaches the hub as its
    /// escape, so a page cannot smuggle one past the check by not escaping it.
    @Test func aRawLoneSurrogateFromAPageIsRefused() async throws {
        let hub = GlobalStateHub()
        let engine = try JavaScriptEngine()
        try await hub.attach(engine)
        try await engine.execute(#"""
            window.webkit.messageHandlers.nativeBridge.postMessage('{"v":1,"storeId":"\ufffd","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":1},"reason":"created"}}');
            window.webkit.messageHandlers.nativeBridge.postMessage('{"v":1,"storeId":"' + String.fromCharCode(0xd800) + '","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":2},"reason":"created"}}');
            """#)
        #expect(hub.storeIDs == ["\u{FFFD}"])
        #expect(hub.state(of: "\u{FFFD}") == ["n": 1])
        #expect(hub.problems.first?.description.contains("field \"storeId\" is not valid Unicode") == true, "\(hub.problems)")
        await engine.close()
    }
}
