import Testing
@testable import JSEngine

/// Swift closures bound into JavaScript, and JavaScript functions held from Swift.
@Suite("Bound closures and held functions", .tags(.engine))
struct BindingTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "not allowed: quota exceeded" }
    }

    struct CodedRefusal: NativeErrorConvertible {
        var scriptMessage: String { "token expired" }
        var scriptName: String? { "AuthError" }
        var scriptCode: String? { "E_AUTH" }
    }

    @Test func argumentsInJSONOut() async throws {
        let engine = try JavaScriptEngine()
        try await engine.bind("add") { arguments in
            .number(arguments.compactMap(\.numberValue).reduce(0, +))
        }
        try await engine.bind("describe") { arguments in
            ["count": .number(Double(arguments.count)), "first": arguments.first ?? nil, "keys": .array(arguments.first?.objectValue?.keys.map { .string($0.string) } ?? [])]
        }
        #expect(try await engine.evaluate("add(1, 2, 3.5)") == 6.5)
        #expect(try await engine.evaluate("add()") == 0)
        #expect(try await engine.evaluate("describe({b: 1, 2: 0}, 'x')") == ["count": 2, "first": ["2": 0, "b": 1], "keys": ["2", "b"]])
        // The result is a real JavaScript value, not text.
        #expect(try await engine.evaluate("describe([1]).first.length") == 1)
        // Native functions behave like functions.
        #expect(try await engine.evaluate("typeof add") == "function")
        #expect(try await engine.evaluate("add.call(null, 1, 1) + add.apply(null, [2, 2]) + add.bind(null, 3)(3)") == 12)
    }

    @Test func swiftErrorBecomesCatchableException() async throws {
        let engine = try JavaScriptEngine()
        try await engine.bind("refuse") { _ in throw Refusal() }
        try await engine.bind("refuseCoded") { _ in throw CodedRefusal() }
        let caught = try await engine.evaluate("""
            const out = [];
            try { refuse(); } catch (e) { out.push(e instanceof Error, e.message); }
            try { refuseCoded(); } catch (e) { out.push(e.name, e.message, e.code); }
            out
            """)
        #expect(caught == [true, "not allowed: quota exceeded", "AuthError", "token expired", "E_AUTH"])
        // Uncaught, it reaches Swift as a JavaScriptError with the same message.
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("refuse()", sourceURL: "caller.js") }
        #expect(error?.message == "not allowed: quota exceeded")
        #expect(error?.name == "Error")
    }

    @Test func bindsOnNestedPath() async throws {
        let engine = try JavaScriptEngine()
        try await engine.bind("double", on: "app.math.ops") { arguments in .number((arguments.first?.numberValue ?? 0) * 2) }
        try await engine.evaluate("globalThis.existing = {keep: true}")
        try await engine.bind("triple", on: "existing") { arguments in .number((arguments.first?.numberValue ?? 0) * 3) }
        #expect(try await engine.evaluate("app.math.ops.double(21)") == 42)
        #expect(try await engine.evaluate("existing.triple(2) + (existing.keep ? 1 : 0)") == 7)
        #expect(try await engine.evaluate("window.app === app") == true)
        await #expect(throws: EngineError.invalidName("a.b")) { try await engine.bind("a.b") { _ in .null } }
        await #expect(throws: EngineError.invalidName("")) { try await engine.bind("") { _ in .null } }
        await #expect(throws: EngineError.invalidName("x..y")) { try await engine.bind("f", on: "x..y") { _ in .null } }
    }

    @Test func boundClosureCanReenterSynchronously() async throws {
        let engine = try JavaScriptEngine()
        try await engine.bind("readBack") { [weak engine] arguments in
            guard let engine else { return .null }
            // Already on the engine thread: the synchronous path.
            return try engine.assumeIsolated { engine in
                try engine.evaluate("state.value * \(arguments.first?.intValue ?? 0)")
            }
        }
        #expect(try await engine.evaluate("var state = {value: 7}; readBack(6)") == 42)
    }

    /// A bound closure must not keep its engine alive: after the owner drops the engine, a
    /// weak reference to it becomes nil, and the closure (with what it captured) is freed.
    @Test func boundClosureDoesNotKeepEngineAlive() async throws {
        final class Token: Sendable {}
        weak var weakEngine: JavaScriptEngine?
        weak var weakToken: Token?
        let thread: EngineThread
        do {
            let engine = try JavaScriptEngine()
            thread = engine.thread
            let token = Token()
            weakToken = token
            try await engine.bind("ping", on: "native") { _ in
                withExtendedLifetime(token) {}
                return "pong"
            }
            let function = try await engine.function("native.ping")
            #expect(try await engine.call(function) == "pong")
            #expect(try await engine.evaluate("native.ping()") == "pong")
            weakEngine = engine
        }
        // The engine's thread exits once the engine is released, after its context (and the
        // closure's function object with it) is freed.
        #expect(await ProcessFigures.waitForExit(of: [thread]))
        #expect(weakEngine == nil)
        #expect(weakToken == nil)
    }

    @Test func heldFunctionCalledRepeatedly() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("var calls = 0; function step(n, extra) { calls++; return {n: n + 1, extra: extra === undefined ? null : extra}; }")
        let step = try await engine.function("step")
        #expect(step.name == "step")
        var current: JSONValue = 0
        for _ in 0..<1_000 { current = try await engine.call(step, [current])["n"] ?? .null }
        #expect(current == 1_000)
        #expect(try await engine.call(step, [1, ["x": [true]]]) == ["n": 2, "extra": ["x": [true]]])
        #expect(try await engine.evaluate("calls") == 1_001)
        // Redefining the global does not change the held function.
        // (`execute`, as the script's value is a function, which `evaluate` would refuse to convert.)
        try await engine.execute("step = function () { return 'new'; }")
        #expect(try await engine.call(step, [1])["n"] == 2)
    }

    @Test func heldFunctionSurvivesGarbageCollectionAndIsReleased() async throws {
        let engine = try JavaScriptEngine()
        do {
            let held = try await engine.function("(function () { const secret = 'kept'; return () => secret; })()")
            try await engine.evaluate("for (let i = 0; i < 200000; i++) ({i, s: 'x' + i});")
            #expect(try await engine.call(held) == "kept")
            #expect(await engine.protectedHandleCount == 1)
        }
        // Releasing the handle unprotects the function on the engine thread.
        try await engine.evaluate("1")
        #expect(await engine.protectedHandleCount == 0)
    }

    @Test func heldFunctionErrorsAndMisuse() async throws {
        let engine = try JavaScriptEngine()
        let thrower = try await engine.function("function (m) { throw new RangeError(m); }")
        let error = await #expect(throws: JavaScriptError.self) { try await engine.call(thrower, ["out of range"]) }
        #expect(error?.name == "RangeError")
        #expect(error?.message == "out of range")
        await #expect(throws: EngineError.self) { try await engine.function("42") }
        await #expect(throws: JavaScriptError.self) { try await engine.function("notDefinedAnywhere") }
        let other = try JavaScriptEngine()
        let foreign = try await other.function("() => 1")
        await #expect(throws: EngineError.self) { try await engine.call(foreign) }
    }

    @Test func heldFunctionOutlivingItsEngineThrowsClosed() async throws {
        var engine: JavaScriptEngine? = try JavaScriptEngine()
        let function = try await engine?.function("() => 1")
        let survivor = try JavaScriptEngine()
        engine = nil
        // Released off the engine thread after the thread ended: harmless.
        #expect(function?.name == "() => 1")
        if let function { await #expect(throws: EngineError.self) { try await survivor.call(function) } }
    }
}

extension JavaScriptEngine {
    /// How many `JSFunction` handles keep a function protected right now.
    var protectedHandleCount: Int { context.protectedHandles.count }
}
