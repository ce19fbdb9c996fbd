import Testing
@testable import JSEngine

@Suite("Evaluation and errors", .tags(.engine))
struct EvaluationTests {
    @Test func evaluatesToJSON() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("1 + 1") == 2)
        #expect(try await engine.evaluate("'a' + 'b'") == "ab")
        #expect(try await engine.evaluate("({b: 1, 2: 0, a: [true, null, 'x']})") == ["2": 0, "b": 1, "a": [true, nil, "x"]])
        #expect(try await engine.evaluate("undefined") == .null)
    }

    @Test func stateSurvivesAcrossEvaluations() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("var counter = 0; function bump() { return ++counter; }")
        try await engine.evaluate("bump(); bump();")
        #expect(try await engine.evaluate("bump()") == 3)
    }

    @Test func uncaughtErrorCarriesLocationAndStack() async throws {
        let engine = try JavaScriptEngine()
        let error = await #expect(throws: JavaScriptError.self) {
            try await engine.evaluate("function f() {\n  throw new TypeError('boom');\n}\nf();", sourceURL: "file.js")
        }
        #expect(error?.name == "TypeError")
        #expect(error?.message == "boom")
        #expect(error?.sourceURL == "file.js")
        #expect(error?.line == 2)
        #expect(error?.column != nil)
        #expect(error?.stack?.contains("f@file.js:2") == true)
        #expect(error?.description.hasPrefix("file.js:2:") == true)
        #expect(error?.description.hasSuffix("TypeError: boom") == true)
    }

    /// Documented outcome: JavaScriptCore gives syntax errors a line but no column, and no stack.
    @Test(arguments: [
        ("let a = 1;\nlet b = ;\n", 2, "Unexpected token ';'"),
        ("x = {", 1, "Unexpected end of script"),
        ("\n\n   foo bar", 3, "Unexpected identifier 'bar'"),
    ])
    func syntaxErrorCarriesLineButNoColumn(source: String, line: Int, message: String) async throws {
        let engine = try JavaScriptEngine()
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate(source, sourceURL: "bad.js") }
        #expect(error?.name == "SyntaxError")
        #expect(error?.message == message)
        #expect(error?.line == line)
        #expect(error?.column == nil)
        #expect(error?.sourceURL == "bad.js")
        #expect(error?.description == "bad.js:\(line): SyntaxError: \(message)")
        // The engine is untouched by the failed parse.
        #expect(try await engine.evaluate("40 + 2") == 42)
    }

    /// `evaluate` converts the completion value and so refuses a function after running the
    /// script; `execute` runs it for its effects alone.
    @Test func executeIgnoresTheCompletionValue() async throws {
        let engine = try JavaScriptEngine()
        await #expect(throws: EngineError.conversion(.unsupportedType("function"))) {
            try await engine.evaluate("window.first = function () { return 1; }")
        }
        #expect(try await engine.evaluate("first()") == 1) // it ran nonetheless
        try await engine.execute("window.second = () => 2", sourceURL: "bundle.js")
        #expect(try await engine.evaluate("second()") == 2)
        let error = await #expect(throws: JavaScriptError.self) { try await engine.execute("\nnope()", sourceURL: "bundle.js") }
        #expect(error?.line == 2)
        #expect(error?.name == "ReferenceError")
    }

    @Test func checkSyntaxDoesNotRun() async throws {
        let engine = try JavaScriptEngine()
        try await engine.checkSyntax("globalThis.ran = true", sourceURL: "ok.js")
        #expect(try await engine.evaluate("typeof ran") == "undefined")
        let error = await #expect(throws: JavaScriptError.self) { try await engine.checkSyntax("let = ;", sourceURL: "bad.js") }
        #expect(error?.name == "SyntaxError")
        #expect(error?.line == 1)
    }

    @Test func thrownNonErrorIsReportedAsItself() async throws {
        let engine = try JavaScriptEngine()
        let object = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("throw {code: 7}") }
        #expect(object?.name == nil)
        #expect(object?.thrownValue == ["code": 7])
        #expect(object?.message == "[object Object]")
        #expect(object?.stack == nil)
        await #expect(throws: JavaScriptError(message: "42", thrownValue: 42)) { try await engine.evaluate("throw 42") }
        await #expect(throws: JavaScriptError(message: "oops", thrownValue: "oops")) { try await engine.evaluate("throw 'oops'") }
        await #expect(throws: JavaScriptError(message: "null", thrownValue: .null)) { try await engine.evaluate("throw null") }
        let undefinedThrown = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("throw undefined") }
        #expect(undefinedThrown?.message == "undefined")
    }

    /// A thrown value that cannot be a string still gets a message that says what it was:
    /// a symbol, a throwing or looping `toString` and a revoked proxy each get a non-empty one.
    @Test(arguments: [
        ("throw Symbol('s')", "a symbol"),
        ("throw { toString() { throw new Error('no') } }", "an object"),
        ("const r = Proxy.revocable({}, {}); r.revoke(); throw r.proxy", "an object"),
    ])
    func aThrownValueThatIsNoStringIsDescribed(source: String, kind: String) async throws {
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200)))
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate(source) }
        #expect(error?.message == "\(kind) that cannot be converted to a string (its conversion threw or was stopped)", "\(String(describing: error))")
        #expect(try await engine.evaluate("1 + 1") == 2)
    }

    /// Reading the message of a value whose `toString` runs away is part of the turn: the
    /// time limit stops it, and that is what the caller hears.
    @Test func aThrownValueWhoseToStringRunsAwayIsAStop() async throws {
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200)))
        let error = await #expect(throws: EngineError.self) { try await engine.evaluate("throw { toString() { for (;;) {} } }") }
        #expect(error?.stop != nil)
        #expect(try await engine.evaluate("1 + 1") == 2)
    }

    @Test func errorSubclassKeepsNameMessageAndStack() async throws {
        let engine = try JavaScriptEngine()
        let source = """
            class ValidationError extends Error {
              constructor(message) { super(message); this.name = 'ValidationError'; }
            }
            function validate() { throw new ValidationError('too short'); }
            validate();
            """
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate(source, sourceURL: "validate.js") }
        #expect(error?.name == "ValidationError")
        #expect(error?.message == "too short")
        #expect(error?.sourceURL == "validate.js")
        let frames = error?.stack?.split(separator: "\n").map(String.init) ?? []
        #expect(frames.contains { $0.hasPrefix("validate@validate.js:4:") })
        #expect(frames.contains { $0.hasPrefix("global code@validate.js:5:") })
    }

    @Test func caughtErrorsStayInJavaScript() async throws {
        let engine = try JavaScriptEngine()
        let value = try await engine.evaluate("try { null.x } catch (e) { e instanceof TypeError ? 'caught' : 'other' }")
        #expect(value == "caught")
    }

    @Test func callsAfterCloseThrowClosed() async throws {
        let engine = try JavaScriptEngine()
        let function = try await engine.function("function () { return 1; }")
        #expect(try await engine.call(function) == 1)
        await engine.close()
        #expect(engine.closed)
        await #expect(throws: EngineError.closed) { try await engine.evaluate("1") }
        await #expect(throws: EngineError.closed) { try await engine.call(function) }
        await #expect(throws: EngineError.closed) { try await engine.bind("f") { _ in .null } }
        await #expect(throws: EngineError.closed) { try await engine.evaluateAndAwait("Promise.resolve(1)") }
        await #expect(throws: EngineError.closed) { try await engine.function("() => 1") }
        // Closing twice is harmless.
        await engine.close()
    }

    @Test func closeHandlersRunOnce() async throws {
        let engine = try JavaScriptEngine()
        let calls = Recorder<Int>()
        engine.onClose { calls.append(1) }
        await engine.close()
        await engine.close()
        #expect(calls.count == 1)
        engine.onClose { calls.append(2) } // already closed: runs at once
        #expect(calls.values == [1, 2])
    }
}
