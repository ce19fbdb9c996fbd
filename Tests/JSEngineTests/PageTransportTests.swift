import Testing
@testable import JSEngine

@Suite("Page transport", .tags(.engine))
struct PageTransportTests {
    @Test func manySendsArriveInOrder() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "page-1"))
        let transport: any PageTransport = engine
        #expect(transport.pageID == "page-1")
        let echoed = Recorder<String>()
        try await transport.receiveMessages(on: "nativeBridge") { echoed.append($0) }
        try await engine.evaluate("""
            var received = [];
            window.app = {dispatch(message) { received.push(message); if (received.length % 100 === 0) webkit.messageHandlers.nativeBridge.postMessage(String(received.length)); }};
            """)
        let failures = Recorder<String>()
        for index in 0..<1_000 {
            transport.send(#"{"seq":\#(index),"text":"quote \" and \\ and 😀"}"#, toFunction: "app.dispatch") { failures.append("\($0)") }
        }
        #expect(await echoed.wait(forCount: 10))
        #expect(failures.values.isEmpty)
        let received = try await engine.evaluate("received.map(m => JSON.parse(m).seq)")
        #expect(received == .array((0..<1_000).map { .number(Double($0)) }))
        #expect(try await engine.evaluate("JSON.parse(received[0]).text") == "quote \" and \\ and 😀")
        #expect(echoed.values.last == "1000")
    }

    @Test func sendsInterleaveWithEvaluationsInOrder() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("var log = []; function push(m) { log.push(m); }")
        engine.send("1", toFunction: "push", onFailure: nil)
        try await engine.evaluate("log.push('eval')")
        engine.send("2", toFunction: "push", onFailure: nil)
        #expect(try await engine.evaluate("log") == ["1", "eval", "2"])
    }

    @Test func failuresReachOnFailure() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "page-2"))
        try await engine.evaluate("var app = {notAFunction: 1, throws(m) { throw new Error('rejected ' + m); }}")
        let failures = Recorder<any Error & Sendable>()
        engine.send("x", toFunction: "app.missing") { failures.append($0) }
        engine.send("x", toFunction: "nowhere.at.all") { failures.append($0) }
        engine.send("x", toFunction: "app.notAFunction") { failures.append($0) }
        engine.send("m", toFunction: "app.throws") { failures.append($0) }
        #expect(await failures.wait(forCount: 4))
        let errors = failures.values
        #expect(errors[safe: 0] as? PageTransportError == .noFunction(pageID: "page-2", path: "app.missing"))
        #expect(errors[safe: 1] as? PageTransportError == .noFunction(pageID: "page-2", path: "nowhere.at.all"))
        #expect(errors[safe: 2] as? PageTransportError == .noFunction(pageID: "page-2", path: "app.notAFunction"))
        #expect((errors[safe: 3] as? JavaScriptError)?.message == "rejected m")
        await engine.close()
        let closed = Recorder<any Error & Sendable>()
        engine.send("x", toFunction: "app.throws") { closed.append($0) }
        #expect(await closed.wait(forCount: 1))
        #expect(closed.values.first as? PageTransportError == .closed(pageID: "page-2"))
    }

    @Test func onCloseFiresWhenPageGoesAway() async throws {
        let closed = Recorder<String>()
        do {
            let engine = try JavaScriptEngine(configuration: .init(name: "short-lived"))
            let transport: any PageTransport = engine
            transport.onClose { closed.append("closed") }
            try await engine.evaluate("1")
        }
        #expect(await closed.wait(forCount: 1))
    }
}
