import Testing
@testable import JSEngine

/// `bindReceiver`: one text argument in, `undefined` out (issue 18).
@Suite("String receivers")
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
}
