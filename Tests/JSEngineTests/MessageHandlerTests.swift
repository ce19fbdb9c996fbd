import Testing
@testable import JSEngine

@Suite("Message handlers", .tags(.engine))
struct MessageHandlerTests {
    @Test func postMessageWithStringAndObjectBodies() async throws {
        let received = Recorder<String>()
        let engine = try JavaScriptEngine()
        try await engine.installMessageHandler(named: "nativeBridge") { received.append($0) }
        try await engine.evaluate("""
            window.webkit.messageHandlers.nativeBridge.postMessage('plain text');
            window.webkit.messageHandlers.nativeBridge.postMessage({type: 'sync', b: 1, 2: 0, list: [1, null]});
            webkit.messageHandlers.nativeBridge.postMessage(42);
            self.webkit.messageHandlers.nativeBridge.postMessage('{"already":"json"}');
            """)
        #expect(received.values == ["plain text", #"{"2":0,"type":"sync","b":1,"list":[1,null]}"#, "42", #"{"already":"json"}"#])
    }

    @Test func severalHandlersAndReplacement() async throws {
        let first = Recorder<String>()
        let second = Recorder<String>()
        let engine = try JavaScriptEngine()
        try await engine.installMessageHandler(named: "bridge") { first.append("bridge:" + $0) }
        try await engine.installMessageHandler(named: "nativeBridge") { second.append($0) }
        try await engine.evaluate("webkit.messageHandlers.bridge.postMessage('a'); webkit.messageHandlers.nativeBridge.postMessage('b')")
        try await engine.installMessageHandler(named: "bridge") { second.append("replaced:" + $0) }
        try await engine.evaluate("webkit.messageHandlers.bridge.postMessage('c')")
        #expect(first.values == ["bridge:a"])
        #expect(second.values == ["b", "replaced:c"])
        #expect(try await engine.evaluate("typeof webkit.messageHandlers.missing") == "undefined")
        await #expect(throws: EngineError.invalidName("a.b")) { try await engine.installMessageHandler(named: "a.b") { _ in } }
    }

    @Test func bodyWithoutJSONFormThrowsInScript() async throws {
        let received = Recorder<String>()
        let engine = try JavaScriptEngine()
        try await engine.installMessageHandler(named: "h") { received.append($0) }
        let caught = try await engine.evaluate("const o = {}; o.o = o; try { webkit.messageHandlers.h.postMessage(o); 'sent' } catch (e) { 'threw' }")
        #expect(caught == "threw")
        #expect(received.values.isEmpty)
    }
}
