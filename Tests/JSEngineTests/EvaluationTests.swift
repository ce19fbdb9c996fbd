import Testing
@testable import JSEngine

@Suite("Evaluation and errors")
struct EvaluationTests {
    @Test func evaluatesToJSON() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("1 + 1") == 2)
        #expect(try await engine.evaluate("'a' + 'b'") == "ab")
        #expect(try await engine.evaluate("({b: 1, 2: 0, a: [true, null, 'x']})") == ["2": 0, "b": 1, "a": [true, nil, "x"]])
        #expect(try await engine.evaluate("undefined") == .null)
    }

    @Test func uncaughtErrorCarriesLocationAndStack() async throws {
        let engine = try JavaScriptEngine()
        do {
            try await engine.evaluate("function f() {\n  throw new TypeError('boom');\n}\nf();", sourceURL: "file.js")
            Issue.record("expected a throw")
        } catch let error as JavaScriptError {
            #expect(error.name == "TypeError")
            #expect(error.message == "boom")
            #expect(error.sourceURL == "file.js")
            #expect(error.line == 2)
            #expect(error.column != nil)
            #expect(error.stack?.contains("f@file.js:2") == true)
        }
    }

    @Test func syntaxErrorCarriesLine() async throws {
        let engine = try JavaScriptEngine()
        do {
            try await engine.evaluate("let a = 1;\nlet b = ;\n", sourceURL: "bad.js")
            Issue.record("expected a throw")
        } catch let error as JavaScriptError {
            #expect(error.name == "SyntaxError")
            #expect(error.line == 2)
            #expect(error.sourceURL == "bad.js")
        }
    }

    @Test func thrownNonErrorIsReportedAsItself() async throws {
        let engine = try JavaScriptEngine()
        do {
            try await engine.evaluate("throw {code: 7}")
            Issue.record("expected a throw")
        } catch let error as JavaScriptError {
            #expect(error.name == nil)
            #expect(error.thrownValue == ["code": 7])
            #expect(error.stack == nil)
        }
        await #expect(throws: JavaScriptError(message: "42", thrownValue: 42)) { try await engine.evaluate("throw 42") }
    }
}
