import Testing
import JSEngine

/// JSONValue's number text checked against the engine's own `JSON.stringify`.
@Suite("JSON number text", .tags(.engine))
struct JSONNumberTextTests {
    /// Our writer lays numbers out exactly as JavaScript's `JSON.stringify` does.
    @Test func numbersAreWrittenAsJavaScriptWritesThem() async throws {
        let engine = try JavaScriptEngine()
        let samples: [Double] = [
            0, 1, -1, 0.1, 0.5, 1.5, -2.25, 1e20, 1e21, 1.5e21, 123e-20, 1e-6, 1e-7, 0.000001234, 2.5e-7,
            9_007_199_254_740_992, 9_007_199_254_740_994, 18_446_744_073_709_551_616, 1.7976931348623157e308,
            .leastNonzeroMagnitude, 123456.789, 1 / 3.0, 100, 1e15, 1e16, 12_345_678_901_234_567_168,
        ]
        let written = JSONValue.array(samples.map(JSONValue.number)).jsonText()
        let javaScript = try await engine.evaluate("JSON.stringify([\(samples.map { "\($0)" }.joined(separator: ","))])")
        #expect(javaScript == .string(written))
        #expect(JSONValue.number(1e21).jsonText() == "1e+21")
        #expect(JSONValue.number(1e20).jsonText() == "100000000000000000000")
        #expect(JSONValue.number(1e-7).jsonText() == "1e-7")
        #expect(JSONValue.number(0.000001).jsonText() == "0.000001")
    }
}
