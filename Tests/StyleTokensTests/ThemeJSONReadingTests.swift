import Foundation
import JSEngine
import Testing
@testable import StyleTokens

/// Themes are parsed by StateHubJSON's parser with strict options; these pin what StyleTokens adds on
/// top and what it reported when it had its own parser: the same errors, at the same line and
/// column, with the same words. The table was produced by that parser.
@Suite("Theme JSON reading", .tags(.unit))
struct ThemeJSONReadingTests {
    static let errorCases: [(text: String, error: ThemeDecodingError)] = [
        ("[1 2]", .malformedJSON(line: 1, column: 4, reason: "expected ',' or ']' in array")),
        ("[1,", .malformedJSON(line: 1, column: 4, reason: "unexpected end of input")),
        ("[1", .malformedJSON(line: 1, column: 3, reason: "expected ',' or ']' in array")),
        ("{\"a\": \"x\\qy\"}", .malformedJSON(line: 1, column: 11, reason: "invalid escape \\'q'")),
        ("{\"a\": \"\\ud800\\u0041\"}", .malformedJSON(line: 1, column: 20, reason: "invalid surrogate pair in \\u escape")),
        ("{\"a\": @}", .malformedJSON(line: 1, column: 7, reason: "unexpected character '@'")),
        ("{\"a\": é}", .malformedJSON(line: 1, column: 7, reason: "unexpected character byte 0xc3")),
        ("\u{FEFF}{\"a\" 1}", .malformedJSON(line: 1, column: 7, reason: "expected ':' after key \"a\"")),
        ("{\r\n\"a\": 1\r\n x}", .malformedJSON(line: 3, column: 2, reason: "expected ',' or '}' in object")),
        ("{\"a\": \"x\u{01}y\"}", .malformedJSON(line: 1, column: 9, reason: "control character in string (escape it)")),
        ("{\"metadata\":{\"version\":\"1.0.0\"},\"colors\":{\"brand.blue\":\"#000\",\"brand.blue\":\"#111\"}}", .duplicateKey(path: "colors[\"brand.blue\"]", line: 1, column: 63)),
        ("{\"metadata\":{\"version\":\"1.0.0\"},\"x\":{\"a\":1,\"\\u0061\":2}}", .duplicateKey(path: "x.a", line: 1, column: 44)),
        ("{\"metadata\":{\"version\":\"1.0.0\"},\"x\":[{\"k\":1},{\"k\":1,\"k\":2}]}", .duplicateKey(path: "x[1].k", line: 1, column: 53)),
        ("{\"metadata\":{\"version\":\"1.0.0\"},\"colors\":{\"primary\":\"#000\",\"primary\":\"#111\"}}", .duplicateKey(path: "colors.primary", line: 1, column: 60)),
        ("{\"a\":1,\"a\" 2}", .duplicateKey(path: "a", line: 1, column: 8)),
        ("{\"a\":1,\"a\":2}", .duplicateKey(path: "a", line: 1, column: 8)),
        ("{\"a\":1,\"a\":2,}", .duplicateKey(path: "a", line: 1, column: 8)),
        ("", .malformedJSON(line: 1, column: 1, reason: "unexpected end of input")),
        ("{\"a\": \"x\\", .malformedJSON(line: 1, column: 10, reason: "unterminated escape")),
        ("{\"a\": \"\\u12G4\"}", .malformedJSON(line: 1, column: 12, reason: "expected four hex digits after \\u")),
        ("{\"a\": \"\\u12", .malformedJSON(line: 1, column: 12, reason: "expected four hex digits after \\u")),
        ("{\"a\": \"\\ud800x\"}", .malformedJSON(line: 1, column: 14, reason: "unpaired surrogate in \\u escape")),
        ("{\"a\": \"\\udc00\"}", .malformedJSON(line: 1, column: 14, reason: "unpaired surrogate in \\u escape")),
        ("{\n  \"metadata\": {\"version\": \"1.0.0\"},\n  \"colors\": {\"primary\" \"#000\"}\n}", .malformedJSON(line: 3, column: 24, reason: "expected ':' after key \"primary\"")),
        ("{\"a\\\"b\" 1}", .malformedJSON(line: 1, column: 9, reason: "expected ':' after key \"a\"b\"")),
        ("{\"a\": nul }", .malformedJSON(line: 1, column: 10, reason: "invalid literal, expected null")),
        ("[1e999]", .malformedJSON(line: 1, column: 7, reason: "number 1e999 is out of range")),
        ("[1.]", .malformedJSON(line: 1, column: 4, reason: "expected a digit after '.'")),
        ("[1e]", .malformedJSON(line: 1, column: 4, reason: "expected a digit in exponent")),
        ("[01]", .malformedJSON(line: 1, column: 3, reason: "expected ',' or ']' in array")),
        ("[-]", .malformedJSON(line: 1, column: 3, reason: "expected a digit")),
        ("{\"a\":1 \"b\":2}", .malformedJSON(line: 1, column: 8, reason: "expected ',' or '}' in object")),
        ("{\"a\":1", .malformedJSON(line: 1, column: 7, reason: "expected ',' or '}' in object")),
        ("{", .malformedJSON(line: 1, column: 2, reason: "expected a key in double quotes")),
        ("{\"a\":1 x,\"a\":2}", .malformedJSON(line: 1, column: 8, reason: "expected ',' or '}' in object")),
        ("{\"metadata\": {\"version\": \"1.2.0\"},", .malformedJSON(line: 1, column: 35, reason: "expected a key in double quotes")),
        ("{} x", .malformedJSON(line: 1, column: 4, reason: "unexpected text after the JSON value")),
        ("tru", .malformedJSON(line: 1, column: 4, reason: "invalid literal, expected true")),
        ("[trux]", .malformedJSON(line: 1, column: 5, reason: "invalid literal, expected true")),
        ("{\"é\": \"ü\" x}", .malformedJSON(line: 1, column: 11, reason: "expected ',' or '}' in object")),
        ("{\"a\": \"xyz", .malformedJSON(line: 1, column: 11, reason: "unterminated string")),
        ("[1e999x]", .malformedJSON(line: 1, column: 7, reason: "number 1e999 is out of range")),
        ("{\"a\\\\\":1}x", .malformedJSON(line: 1, column: 10, reason: "unexpected text after the JSON value")),
        ("{\"a\":1,\"b\":[1,2,{\"a\":1,\"b\":2}],\"a\":3}", .duplicateKey(path: "a", line: 1, column: 32)),
        ("{\"a\":[1,{\"b\":{\"c\":1,\"c\":2}}]}", .duplicateKey(path: "a[1].b.c", line: 1, column: 21)),
        ("{\"a\":\"\\ud800\\q\"}", .malformedJSON(line: 1, column: 13, reason: "unpaired surrogate in \\u escape")),
        ("\"\\ud800", .malformedJSON(line: 1, column: 8, reason: "unpaired surrogate in \\u escape")),
        ("{\"\\udc00\":1}", .malformedJSON(line: 1, column: 9, reason: "unpaired surrogate in \\u escape")),
        ("{\"a\":01}", .malformedJSON(line: 1, column: 7, reason: "expected ',' or '}' in object")),
        ("01", .malformedJSON(line: 1, column: 2, reason: "unexpected text after the JSON value")),
        ("{\"a\":-1e-999,\"b\":-1e400}", .malformedJSON(line: 1, column: 24, reason: "number -1e400 is out of range")),
    ]

    @Test("syntax errors, duplicate keys, surrogates and huge numbers are reported as before")
    func errorsAsBefore() {
        for (text, expected) in Self.errorCases {
            #expect(throws: expected, "\(text.debugDescription)") { try ThemeJSONDecoder().parse(ThemeFixtures.data(text)) }
        }
    }

    @Test("nesting: 256 levels of containers around a value is one too many")
    func nestingBoundary() throws {
        func nested(_ depth: Int, around inner: String) -> String {
            String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
        }
        // The root array is level 1; its scalar sits inside 256 containers.
        #expect(try ThemeJSONDecoder().parse(ThemeFixtures.data(nested(255, around: "1"))) != .null)
        #expect(try ThemeJSONDecoder().parse(ThemeFixtures.data(nested(255, around: "[]"))) != .null)
        #expect(throws: ThemeDecodingError.malformedJSON(line: 1, column: 257, reason: "nesting deeper than 256 levels")) {
            try ThemeJSONDecoder().parse(ThemeFixtures.data(nested(256, around: "1")))
        }
        // Deeper than JSEngine's own limit: still reported at level 256.
        #expect(throws: ThemeDecodingError.malformedJSON(line: 1, column: 257, reason: "nesting deeper than 256 levels")) {
            try ThemeJSONDecoder().parse(ThemeFixtures.data(String(repeating: "[", count: 600) + "x"))
        }
        let objects = String(repeating: #"{"k":"#, count: 300) + "1" + String(repeating: "}", count: 300)
        #expect(throws: ThemeDecodingError.malformedJSON(line: 1, column: 1281, reason: "nesting deeper than 256 levels")) {
            try ThemeJSONDecoder().parse(ThemeFixtures.data(objects))
        }
    }

    @Test("a UTF-8 byte-order mark is skipped")
    func byteOrderMark() throws {
        let contract = try ThemeContract(jsonData: Data([0xEF, 0xBB, 0xBF]) + ThemeFixtures.data(ThemeFixtures.theme(version: "1.0.0")))
        #expect(contract.metadata.version == "1.0.0")
    }

    @Test("whitespace only is the end of input")
    func whitespaceOnly() {
        #expect(throws: ThemeDecodingError.malformedJSON(line: 2, column: 3, reason: "unexpected end of input")) {
            try ThemeJSONDecoder().parse(ThemeFixtures.data("   \n  "))
        }
    }

    @Test("unknown objects keep their key order, nested ones included")
    func unknownOrderSurvivesEncoding() throws {
        let json = #"{"metadata":{"version":"1.0.0"},"zz":{"b":1,"a":2,"c":[1,{"y":1,"x":2}]},"aa":true}"#
        let contract = try ThemeContract(jsonData: ThemeFixtures.data(json))
        #expect(contract.unknownFields.keys == ["zz", "aa"])
        #expect(contract.unknownFields["zz"]?.jsonText() == #"{"b":1,"a":2,"c":[1,{"y":1,"x":2}]}"#)
    }

    @Test("line and column count line feeds and Unicode scalars")
    func sourceLocation() {
        let bytes = Array("ab\né😀x\r\ny".utf8)
        func location(_ offset: Int) -> (Int, Int) {
            let location = JSONSourceLocation(offset: offset, in: bytes)
            return (location.line, location.column)
        }
        #expect(location(0) == (1, 1))
        #expect(location(2) == (1, 3))
        #expect(location(3) == (2, 1))
        // é is 2 bytes and 😀 4: x is the third scalar of the line.
        #expect(location(9) == (2, 3))
        #expect(location(12) == (3, 1))
        #expect(location(100) == (3, 2))
    }
}

@Suite("theme reader bounds", .tags(.unit))
struct ThemeReaderBoundsTests {
    @Test("a document over the size cap is refused before it is parsed, with a clear error")
    func sizeCap() throws {
        let big = Data(repeating: UInt8(ascii: " "), count: 64) + ThemeFixtures.data("{}")
        #expect(throws: ThemeDecodingError.tooLarge(size: 66, limit: 32)) {
            try ThemeJSONDecoder(maximumSize: 32).parse(big)
        }
        #expect(ThemeDecodingError.tooLarge(size: 66, limit: 32).description == "$: the file is 66 bytes, more than the 32 a theme may have")
        #expect(try ThemeJSONDecoder().parse(big) == [:])
    }

    @Test("keys compare as JavaScript compares them: é and e + U+0301 are two keys, not a duplicate")
    func keysByCodeUnits() throws {
        let value = try ThemeJSONDecoder().parse(ThemeFixtures.data("{\"\u{E9}\":1,\"e\u{301}\":2}"))
        #expect(value.objectValue?.count == 2)
        var list = KeyedList<Int>()
        list["\u{E9}"] = 1
        list["e\u{301}"] = 2
        #expect(list.count == 2)
        #expect(list.keys == ["\u{E9}", "e\u{301}"])
        list["\u{E9}"] = nil
        #expect(list.keys == ["e\u{301}"])
    }
}
