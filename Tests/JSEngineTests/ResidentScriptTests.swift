import Testing
@testable import JSEngine

/// Scripts whose text every engine reads in place (docs/engine.md, "Memory per engine").
@Suite("Resident scripts")
struct ResidentScriptTests {
    static let ascii = ResidentScript("globalThis.shared = function shared(a) { return a * 2; }; globalThis.shared(21);")

    @Test func asciiTextIsSharedAndRunsInEveryEngine() async throws {
        #expect(Self.ascii.bytes != nil)
        for _ in 0..<2 {
            let engine = try JavaScriptEngine()
            try await engine.execute(Self.ascii, sourceURL: "statehub:test/resident.js")
            #expect(try await engine.evaluate("shared(4)") == 8)
            // JavaScriptCore reads the function's text from the shared copy.
            #expect(try await engine.evaluate("String(shared)") == "function shared(a) { return a * 2; }")
        }
    }

    @Test func textThatIsNotASCIIIsEvaluatedAsAnyScript() async throws {
        let script = ResidentScript("globalThis.pineapple = '🍍';")
        #expect(script.bytes == nil)
        let engine = try JavaScriptEngine()
        try await engine.execute(script, sourceURL: "statehub:test/resident.js")
        #expect(try await engine.evaluate("pineapple") == "🍍")
    }

    @Test func aSyntaxErrorIsReportedAsByAnyScript() async throws {
        let engine = try JavaScriptEngine()
        let error = await #expect(throws: JavaScriptError.self) {
            try await engine.execute(ResidentScript("let = = 1;"), sourceURL: "statehub:test/broken.js")
        }
        #expect(error?.name == "SyntaxError")
    }

    @Test func anErrorThrownByTheScriptIsReported() async throws {
        let engine = try JavaScriptEngine()
        let error = await #expect(throws: JavaScriptError.self) {
            try await engine.execute(ResidentScript("throw new RangeError('resident');"), sourceURL: "statehub:test/throws.js")
        }
        #expect(error?.name == "RangeError")
        #expect(error?.message == "resident")
    }

    /// A character outside ASCII in the web globals would quietly cost every engine its own copy again.
    @Test func theWebGlobalsAreShared() {
        #expect(WebGlobalsScript.resident.bytes != nil)
    }
}
