import Testing
import Foundation
import StateHubJSON

/// The `JSONValue` text parser and serializer on their own.
@Suite("JSONValue text", .tags(.unit))
struct JSONValueTests {
    @Test func parsesEveryKind() throws {
        let value = try JSONValue(parsing: #" { "a" : [1, -2.5, 3e2, true, false, null, "s"], "b": {} , "c": [] } "#)
        #expect(value == ["a": [1, -2.5, 300, true, false, nil, "s"], "b": [:], "c": []])
        #expect(value.objectValue.map { Array($0.keys) } == ["a", "b", "c"])
    }

    @Test func keepsKeyOrderAndLastDuplicate() throws {
        let value = try JSONValue(parsing: #"{"z":1,"a":2,"m":3,"a":4}"#)
        #expect(value.objectValue.map { Array($0.keys) } == ["z", "a", "m"])
        #expect(value["a"] == 4)
    }

    @Test func escapes() throws {
        let value = try JSONValue(parsing: #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u4e2d""#)
        #expect(value == "\" \\ / \u{8} \u{C} \n \r \t A é 中")
        let written = JSONValue.string("\" \\ / \u{8} \u{C} \n \r \t \u{1} \u{1F}").jsonText()
        #expect(written == #""\" \\ / \b \f \n \r \t \u0001 \u001f""#)
        #expect(try JSONValue(parsing: written) == "\" \\ / \u{8} \u{C} \n \r \t \u{1} \u{1F}")
    }

    @Test func surrogatePairsAndLoneSurrogates() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == "😀")
        #expect(try JSONValue(parsing: #""\uD83D\uDE00x""#) == "😀x")
        #expect(try JSONValue(parsing: #""a\ud800b""#) == "a\u{FFFD}b")
        #expect(try JSONValue(parsing: #""\udc00""#) == "\u{FFFD}")
        #expect(try JSONValue(parsing: #""\ud800\u0041""#) == "\u{FFFD}A")
        #expect(try JSONValue(parsing: "\"😀 raw UTF-8\"") == "😀 raw UTF-8")
        #expect(JSONValue.string("😀").jsonText() == "\"😀\"")
    }

    @Test(arguments: [
        ("", 0, JSONParseError.Reason.expectedValue(found: nil)),
        ("   ", 3, .expectedValue(found: nil)),
        ("[1, 2", 5, .expectedCommaOrArrayEnd),
        ("{\"a\" 1}", 5, .expectedColon),
        ("{a: 1}", 1, .expectedKey),
        ("[1,]", 3, .expectedValue(found: UInt8(ascii: "]"))),
        ("01", 1, .textAfterValue),
        ("[01]", 2, .expectedCommaOrArrayEnd),
        ("1.", 2, .expectedFractionDigit),
        ("1e", 2, .expectedExponentDigit),
        ("-", 1, .expectedDigit),
        ("tru", 3, .invalidLiteral(expected: "true")),
        ("nul!", 3, .invalidLiteral(expected: "null")),
        ("\"abc", 4, .unterminatedString),
        ("\"a\\", 3, .unterminatedEscape),
        ("\"a\u{1}\"", 2, .controlCharacterInString),
        ("\"\\x\"", 3, .invalidEscape(UInt8(ascii: "x"))),
        ("\"\\u12G4\"", 5, .invalidUnicodeEscape),
        ("1 2", 2, .textAfterValue),
        ("NaN", 0, .expectedValue(found: UInt8(ascii: "N"))),
        ("{\"a\":1 \"b\":2}", 7, .expectedCommaOrObjectEnd),
    ])
    func invalidInputNamesReasonAndOffset(text: String, offset: Int, reason: JSONParseError.Reason) {
        #expect {
            _ = try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.offset == offset && error.reason == reason && error.line == 1 && error.column == offset + 1
        }
    }

    @Test func nestingIsBounded() throws {
        let limit = JSONParsingOptions.defaultMaximumDepth
        let fine = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONValue(parsing: fine).arrayValue != nil)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect {
            try JSONValue(parsing: tooDeep)
        } throws: { error in
            let error = error as? JSONParseError
            return error?.reason == .tooDeep(maximum: limit) && error?.offset == limit && error?.path.count == limit
        }
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: hostile) }
    }

    @Test func numbers() throws {
        let negativeZero = try JSONValue(parsing: "-0")
        #expect(negativeZero.numberValue?.sign == .minus)
        #expect(negativeZero.jsonText() == "0") // as JSON.stringify(-0)
        #expect(try JSONValue(parsing: "0.1") == .number(0.1))
        #expect(try JSONValue(parsing: "1e21") == .number(1e21))
        #expect(try JSONValue(parsing: "1E+2") == 100)
        #expect(try JSONValue(parsing: "-1.5e-3") == .number(-0.0015))
        #expect(try JSONValue(parsing: "123456789012345678901234567890") == .number(1.2345678901234568e29))
        #expect(try JSONValue(parsing: "9007199254740993") == .number(9_007_199_254_740_992)) // nearest double
        // Out of double range: as JSON.parse, Infinity (written back as null).
        #expect(try JSONValue(parsing: "1e400") == .number(.infinity))
        #expect(try JSONValue(parsing: "-1e400") == .number(-.infinity))
        #expect(JSONValue.number(.nan).jsonText() == "null")
        #expect(JSONValue.number(-.infinity).jsonText() == "null")
        #expect(JSONValue(integerLiteral: 3).intValue == 3)
        #expect(JSONValue.number(2.5).intValue == nil)
    }

    @Test func numbersAreWrittenAsJavaScriptDoes() {
        #expect(JSONValue.number(1e21).jsonText() == "1e+21")
        #expect(JSONValue.number(1e20).jsonText() == "100000000000000000000")
        #expect(JSONValue.number(1e-7).jsonText() == "1e-7")
        #expect(JSONValue.number(0.000001).jsonText() == "0.000001")
        #expect(JSONValue.number(-2.25).jsonText() == "-2.25")
        #expect(JSONValue.number(123e-20).jsonText() == "1.23e-18")
    }

    @Test func writesCompactText() {
        let value: JSONValue = ["a": [1, "two", nil, true], "b": ["c": [:]], "": []]
        #expect(value.jsonText() == #"{"a":[1,"two",null,true],"b":{"c":{}},"":[]}"#)
        #expect(value.description == value.jsonText())
    }

    @Test func codableBridges() throws {
        struct Point: Codable, Equatable { var x: Int; var y: String }
        let value = try JSONValue(encoding: Point(x: 1, y: "z"))
        #expect(value["x"] == 1)
        #expect(try value.decode(Point.self) == Point(x: 1, y: "z"))
    }

    @Test func accessors() {
        let value: JSONValue = ["list": [1, 2], "s": "t", "b": false, "n": nil]
        #expect(value["list"]?[1] == 2)
        #expect(value["list"]?[2] == nil)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.stringValue == "t")
        #expect(value["b"]?.boolValue == false)
        #expect(value["n"]?.isNull == true)
        #expect(value[0] == nil)
    }
}

@Suite("JSONValue indented text", .tags(.unit))
struct IndentedTextTests {
    @Test func indentsOneMemberPerLine() {
        let value: JSONValue = ["a": [1, [:], []], "b": ["c": nil]]
        #expect(value.jsonText(indentedBy: "  ") == """
            {
              "a": [
                1,
                {},
                []
              ],
              "b": {
                "c": null
              }
            }
            """)
        #expect(JSONValue.number(1).jsonText(indentedBy: "  ") == "1")
    }
}
