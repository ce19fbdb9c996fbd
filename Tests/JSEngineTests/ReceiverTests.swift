import Testing
@testable import JSEngine

/// `bindReceiver`: one text argument in, `undefined` out.
@Suite("String receivers", .tags(.engine))
struct ReceiverTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "not now" }
    }

    @Test func aStringAsItIsAnythingElseAsJSONText() async throws {
        let engine = try JavaScriptEngine()
        let received = Recorder<String>()
        try await engine.bindReceiver("receive", on: "app") { text in received.append(text) }
        let result = try await engine.evaluate(#"""
            [app.receive('{"a":1}'), app.receive('é \ud83d\ude00'), app.receive({ b: [1, 'x'], 2: 0 }), app.receive(7),
             app.receive(), app.receive(undefined, 'ignored'), app.receive(''), app.receive('lone \ud800')].every(r => r === undefined)
            """#)
        #expect(result == true)
        #expect(received.values == [#"{"a":1}"#, "é 😀", #"{"2":0,"b":[1,"x"]}"#, "7", "null", "null", "", "lone \u{FFFD}"])
        // The same text a bound closure sees for a string.
        try await engine.bind("receiveJSON") { arguments in arguments.first ?? .null }
        #expect(try await engine.evaluate("receiveJSON('lone \\ud800')") == "lone \u{FFFD}")
    }

    @Test func anErrorBecomesAnException() async throws {
        let engine = try JavaScriptEngine()
        try await engine.bindReceiver("refuse") { _ in throw Refusal() }
        #expect(try await engine.evaluate("try { refuse('x'); 'no' } catch (e) { e.message }") == "not now")
        await #expect(throws: EngineError.invalidName("a.b")) { try await engine.bindReceiver("a.b") { _ in } }
        // A symbol has no text: the conversion's error reaches the script.
        #expect(try await engine.evaluate("try { refuse(Symbol('s')); 'no' } catch (e) { e instanceof Error }") == true)
    }

    /// `bindBytesReceiver` lends the bytes of the text `bindReceiver` would make, for every kind
    /// of argument: a long text (a heap buffer, not the stack), non-ASCII, a lone surrogate
    /// (JavaScriptCore stops there: the repaired text's bytes), non-strings as JSON text.
    @Test func theBytesAreTheTextsUTF8() async throws {
        let engine = try JavaScriptEngine()
        let texts = Recorder<String>()
        let bytes = Recorder<[UInt8]>()
        try await engine.bindReceiver("text") { texts.append($0) }
        try await engine.bindBytesReceiver("bytes", on: "app") { bytes.append(Array($0)) }
        let arguments = [#"'{"a":1}'"#, #"'é \ud83d\ude00'"#, "({ b: [1, 'x'], 2: 0 })", "7", "", "undefined", "''",
                         #"'lone \ud800 and after'"#, "'x'.repeat(100000) + 'é'"]
        for argument in arguments {
            #expect(try await engine.evaluate("text(\(argument)) === undefined && app.bytes(\(argument)) === undefined") == true)
        }
        #expect(bytes.values == texts.values.map { Array($0.utf8) })
        #expect(texts.values[7] == "lone \u{FFFD} and after")
        #expect(texts.values[8].utf8.count == 100_002)
        try await engine.bindBytesReceiver("refuse") { _ in throw Refusal() }
        #expect(try await engine.evaluate("try { refuse('x'); 'no' } catch (e) { e.message }") == "not now")
    }

    /// The message handler for bytes converts as `installMessageHandler` does: a lone surrogate
    /// arrives as its JSON escape, so a JSON reader sees it.
    @Test func theBytesMessageHandlerEscapesLoneSurrogates() async throws {
        let engine = try JavaScriptEngine()
        let texts = Recorder<String>()
        let bytes = Recorder<[UInt8]>()
        try await engine.installMessageHandler(named: "asText") { texts.append($0) }
        try await engine.installBytesMessageHandler(named: "asBytes") { bytes.append(Array($0)) }
        for body in [#"'{"k":"\ud800"}'"#, "({ n: 1 })", "'plain'"] {
            try await engine.evaluate("webkit.messageHandlers.asText.postMessage(\(body)); webkit.messageHandlers.asBytes.postMessage(\(body))")
        }
        #expect(texts.values == [#"{"k":"\ud800"}"#, #"{"n":1}"#, "plain"])
        #expect(bytes.values == texts.values.map { Array($0.utf8) })
    }
}
