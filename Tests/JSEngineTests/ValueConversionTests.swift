import Testing
@testable import JSEngine

/// JavaScript ⇄ `JSONValue`, both ways, and the documented outcome for what JSON cannot hold.
@Suite("Value conversion", .tags(.engine))
struct ValueConversionTests {
    @Test func keyOrderIsJavaScriptsOwn() async throws {
        let engine = try JavaScriptEngine()
        let value = try await engine.evaluate("({b: 1, 2: 0, a: 2, 1: 3, '-1': 4, '01': 5})")
        // Integer-like keys first, ascending; then the rest in insertion order.
        #expect(value.objectValue.map { Array($0.keys) } == ["1", "2", "b", "a", "-1", "01"])
        let parsed = try await engine.evaluate("JSON.parse('{\"b\":1,\"2\":0}')")
        #expect(parsed.objectValue.map { Array($0.keys) } == ["2", "b"])
    }

    @Test func swiftToJavaScriptKeepsKeyOrderAndTypes() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("function describe(v) { return {keys: Object.keys(v.obj), types: v.list.map(x => x === null ? 'null' : typeof x)}; }")
        let describe = try await engine.function("describe")
        let argument: JSONValue = ["obj": ["z": 1, "y": 2, "x": 3], "list": [nil, true, 1.5, "s", [], [:]]]
        let result = try await engine.call(describe, [argument])
        #expect(result == ["keys": ["z", "y", "x"], "types": ["null", "boolean", "number", "string", "object", "object"]])
    }

    @Test(arguments: [
        JSONValue.null, true, false, 0, -1.5, 1e300, "", "plain", "quote \" backslash \\ newline \n tab \t nul \u{0}",
        "émoji 😀👍🏽 中文 ∑", [], [:], [1, [2, [3, ["deep": [true]]]]], ["nested": ["a": [nil, "x"]], "n": 12],
    ])
    func roundTripsThroughJavaScript(value: JSONValue) async throws {
        let engine = try JavaScriptEngine()
        let identity = try await engine.function("function (v) { return v; }")
        #expect(try await engine.call(identity, [value]) == value)
    }

    @Test func unicodeAndEmojiSurviveBothWays() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("'😀'.length") == 2)
        #expect(try await engine.evaluate("'\\u{1F600}'") == "😀")
        let measure = try await engine.function("function (s) { return [s.length, [...s].length, s.codePointAt(0)]; }")
        #expect(try await engine.call(measure, ["👍🏽a"]) == [5, 3, 0x1F44D])
        #expect(try await engine.evaluate("({'ключ': 'значение', '🔑': '🚪'})") == ["ключ": "значение", "🔑": "🚪"])
    }

    /// Documented outcome: a lone surrogate has no place in a Swift string and becomes U+FFFD,
    /// at the top level and nested alike.
    @Test func loneSurrogatesBecomeReplacementCharacters() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("'a\\uD800b'") == "a\u{FFFD}b")
        #expect(try await engine.evaluate("['\\uDC00', {k: 'x\\uD83D'}]") == ["\u{FFFD}", ["k": "x\u{FFFD}"]])
        #expect(try await engine.evaluate("'\\uD83D\\uDE00'") == "😀") // a proper pair stays whole
    }

    @Test func bigAndSmallNumbers() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("2 ** 53") == .number(9_007_199_254_740_992))
        #expect(try await engine.evaluate("Number.MAX_SAFE_INTEGER") == .number(9_007_199_254_740_991))
        #expect(try await engine.evaluate("Number.MAX_VALUE") == .number(.greatestFiniteMagnitude))
        #expect(try await engine.evaluate("Number.MIN_VALUE") == .number(.leastNonzeroMagnitude))
        #expect(try await engine.evaluate("[1e21, -1e21, 0.1 + 0.2]") == [.number(1e21), .number(-1e21), .number(0.1 + 0.2)])
        #expect(try await engine.evaluate("-0").numberValue == 0)
        let identity = try await engine.function("function (v) { return [v, typeof v, Object.is(v, -0)]; }")
        #expect(try await engine.call(identity, [.number(-0.0)]) == [0, "number", true])
        #expect(try await engine.call(identity, [.number(1e307)]) == [.number(1e307), "number", false])
    }

    /// The documented table: top level, inside an object, inside an array.
    @Test func valuesWithoutJSONFormAtTopLevel() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("undefined") == .null)
        #expect(try await engine.evaluate("NaN") == .null)
        #expect(try await engine.evaluate("Infinity") == .null)
        #expect(try await engine.evaluate("-Infinity") == .null)
        await #expect(throws: EngineError.conversion(.unsupportedType("function"))) { try await engine.evaluate("(function f() {})") }
        await #expect(throws: EngineError.conversion(.unsupportedType("function"))) { try await engine.evaluate("(() => 1)") }
        await #expect(throws: EngineError.conversion(.unsupportedType("symbol"))) { try await engine.evaluate("Symbol('s')") }
        await #expect(throws: EngineError.conversion(.bigInt)) { try await engine.evaluate("10n") }
        await #expect(throws: EngineError.conversion(.cycle)) { try await engine.evaluate("var o = {}; o.self = o; o") }
        await #expect(throws: EngineError.conversion(.cycle)) { try await engine.evaluate("var a = []; a.push(a); a") }
        #expect(try await engine.evaluate("new Date(0)") == "1970-01-01T00:00:00.000Z")
        #expect(try await engine.evaluate("({toJSON() { return undefined; }})") == .null)
        // The engine is still fine after each failure.
        #expect(try await engine.evaluate("'still here'") == "still here")
    }

    @Test func valuesWithoutJSONFormNested() async throws {
        let engine = try JavaScriptEngine()
        let object = try await engine.evaluate("({u: undefined, f() {}, s: Symbol('x'), n: NaN, i: -Infinity, p: Infinity, kept: 1})")
        #expect(object == ["n": nil, "i": nil, "p": nil, "kept": 1])
        let array = try await engine.evaluate("[undefined, function () {}, Symbol('y'), NaN, Infinity, 2]")
        #expect(array == [nil, nil, nil, nil, nil, 2])
        await #expect(throws: EngineError.conversion(.bigInt)) { try await engine.evaluate("({deep: {value: 1n}})") }
        await #expect(throws: EngineError.conversion(.bigInt)) { try await engine.evaluate("[[1n]]") }
        await #expect(throws: EngineError.conversion(.cycle)) { try await engine.evaluate("var o = {a: {b: {}}}; o.a.b.back = o; ({wrapper: o})") }
        // Shared (not cyclic) references are fine: each appears in full.
        #expect(try await engine.evaluate("var shared = {x: 1}; ({a: shared, b: [shared]})") == ["a": ["x": 1], "b": [["x": 1]]])
        #expect(try await engine.evaluate("({when: new Date(86400000), map: new Map([[1, 2]])})") == ["when": "1970-01-02T00:00:00.000Z", "map": [:]])
    }

    @Test func argumentsOfBoundFunctionsFollowTheSameTable() async throws {
        let engine = try JavaScriptEngine()
        let received = Recorder<[JSONValue]>()
        try await engine.bind("take") { arguments in received.append(arguments); return .null }
        try await engine.evaluate("take(undefined, NaN, {f() {}, u: undefined, k: 1}, [undefined])")
        #expect(received.values == [[nil, nil, ["k": 1], [nil]]])
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("take(() => 1)") }
        #expect(error?.message.contains("function has no JSON form") == true)
    }

    @Test func walkingAgreesWithJSONText() async throws {
        let engine = try JavaScriptEngine()
        let expression = "{items: Array.from({length: 5}, (_, i) => ({id: i, name: 'n' + i, tags: ['a', '😀']})), b: 1, 2: 0, nested: {x: null, y: [true, false]}}"
        let text = try await engine.convertRepeatedly(expression, iterations: 3, strategy: .jsonText)
        let walked = try await engine.convertRepeatedly(expression, iterations: 3, strategy: .walking)
        #expect(text == walked)
        #expect(text["2"] == 0)
        #expect(text["items"]?[4]?["tags"] == ["a", "😀"])
    }
}
