import Testing
import StateHubJSON

/// `JSONParser.parseCollecting`: every problem of a hand-edited text in one pass, each with its
/// reason, line, column and path.
@Suite("JSON parsing that collects every problem", .tags(.unit))
struct CollectingParseTests {
    static let strict = JSONParsingOptions(duplicateKeys: .refuse, loneSurrogates: .refuse, numberRange: .finite)

    func collect(_ text: String, _ options: JSONParsingOptions = strict, maximum: Int = 100) -> JSONCollectedParse {
        JSONParser(options: options).parseCollecting(Array(text.utf8), maximumProblems: maximum)
    }

    struct Seen: Equatable, CustomStringConvertible {
        var reason: JSONParseError.Reason
        var line: Int
        var column: Int
        var path: [JSONPathElement]
        var description: String { "\(line):\(column) \(path) \(reason)" }
    }

    func seen(_ result: JSONCollectedParse) -> [Seen] {
        result.problems.map { Seen(reason: $0.reason, line: $0.line, column: $0.column, path: $0.path) }
    }

    @Test func problemsThatKeepTheStructureAreAllReported() {
        let text = """
            {
              "a": 1,
              "a": 2,
              "big": 1e999,
              "s": "\\ud800x",
              "list": [1., 2, 3e],
              "b": {"k": true, "k": false}
            }
            """
        let result = collect(text)
        #expect(result.value == nil)
        #expect(seen(result) == [
            Seen(reason: .duplicateKey("a"), line: 3, column: 3, path: [.key("a")]),
            Seen(reason: .numberOutOfRange("1e999"), line: 4, column: 15, path: [.key("big")]),
            Seen(reason: .loneSurrogate, line: 5, column: 15, path: [.key("s")]),
            Seen(reason: .expectedFractionDigit, line: 6, column: 14, path: [.key("list"), .index(0)]),
            Seen(reason: .expectedExponentDigit, line: 6, column: 21, path: [.key("list"), .index(2)]),
            Seen(reason: .duplicateKey("k"), line: 7, column: 20, path: [.key("b"), .key("k")]),
        ], "\(seen(result))")
    }

    @Test func missingAndExtraPunctuationIsReadAsMeant() {
        let result = collect(#"{"a": 1 "b" 2, "c": [1 2,], "d": 4,}"#)
        #expect(seen(result) == [
            Seen(reason: .expectedCommaOrObjectEnd, line: 1, column: 9, path: []),
            Seen(reason: .expectedColon, line: 1, column: 13, path: [.key("b")]),
            Seen(reason: .expectedCommaOrArrayEnd, line: 1, column: 24, path: [.key("c"), .index(1)]),
            Seen(reason: .expectedValue(found: UInt8(ascii: "]")), line: 1, column: 26, path: [.key("c"), .index(2)]),
            Seen(reason: .expectedKey, line: 1, column: 36, path: []),
        ], "\(seen(result))")
    }

    @Test func aProblemThatBreaksTheStructureIsTheLast() {
        let result = collect("{\"a\": 1, \"a\": 2, \"b\": @, \"a\": 3}")
        #expect(seen(result).map(\.reason) == [.duplicateKey("a"), .expectedValue(found: UInt8(ascii: "@"))])
        #expect(seen(collect(#"{"a": "x"#)).map(\.reason) == [.unterminatedString])
        #expect(seen(collect("[1] x")).map(\.reason) == [.textAfterValue])
        var shallow = Self.strict
        shallow.maximumDepth = 2
        #expect(seen(collect("[[[1]], {\"a\":1,\"a\":2}]", shallow)).map(\.reason) == [.tooDeep(maximum: 2)])
    }

    @Test func aValidTextGivesTheStrictParsersValueAndNoProblem() throws {
        for text in [#"{"a":[1,2,{"b":null}],"c":"\u00e9","d":-0.5e3}"#, "[]", "\u{FEFF}{\"x\":true}"] {
            var options = Self.strict
            options.skipsByteOrderMark = true
            let result = collect(text, options)
            #expect(result.problems.isEmpty, "\(text): \(seen(result))")
            #expect(result.value == (try JSONParser(options: options).parse(text)))
        }
        // With the default (JSON.parse) options, a duplicate key is no problem: the last value wins.
        #expect(collect(#"{"a":1,"a":2}"#, JSONParsingOptions()).value == ["a": 2])
    }

    @Test func theNumberOfProblemsIsCapped() {
        let text = "[" + Array(repeating: "1e999", count: 500).joined(separator: ",") + "]"
        #expect(collect(text, maximum: 10).problems.count == 10)
    }
}
