import Testing
import StateHubJSON

/// The parser's options, its error locations and paths.
@Suite("JSON parsing options", .tags(.unit))
struct ParsingOptionsTests {
    static let strict = JSONParsingOptions(duplicateKeys: .refuse, loneSurrogates: .refuse, numberRange: .finite)

    func failure(_ text: String, _ options: JSONParsingOptions = strict) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: text, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func duplicateKeysRefusedWithTheirPath() throws {
        let error = failure(#"{"x":[{"k":1},{"k":1,"k":2}]}"#)
        #expect(error?.reason == .duplicateKey("k"))
        #expect(error?.path == [.key("x"), .index(1), .key("k")])
        #expect(error?.offset == 21)
        // Decoded before comparing: an escaped spelling is the same key.
        #expect(failure(#"{"a":1,"\u0061":2}"#)?.reason == .duplicateKey("a"))
        // Larger objects (a set is kept past eight keys).
        let many = "{" + (0..<20).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k3\":1}"
        #expect(failure(many)?.reason == .duplicateKey("k3"))
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#)["a"] == 2)
    }

    @Test func loneSurrogatesRefusedOrReplaced() throws {
        #expect(failure(#""\ud800x""#).map { ($0.reason, $0.offset) } ?? (.textAfterValue, 0) == (.loneSurrogate, 7))
        #expect(failure(#""\udc00""#)?.reason == .loneSurrogate)
        #expect(failure(#""\ud800\u0041""#).map { ($0.reason, $0.offset) } ?? (.textAfterValue, 0) == (.invalidSurrogatePair, 13))
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#, options: Self.strict) == "😀")
        #expect(try JSONValue(parsing: #""\ud800\ud83d\ude00""#) == "\u{FFFD}😀")
    }

    @Test func numberRange() throws {
        let error = failure("[1, -1e400]")
        #expect(error?.reason == .numberOutOfRange("-1e400"))
        #expect(error?.offset == 10)
        #expect(error?.path == [.index(1)])
        #expect(try JSONValue(parsing: "-1e-999", options: Self.strict) == 0) // underflow is fine
        #expect(try JSONValue(parsing: "1.7976931348623157e308", options: Self.strict) == .number(.greatestFiniteMagnitude))
    }

    @Test func maximumDepthCountsLevels() throws {
        let two = JSONParsingOptions(maximumDepth: 2)
        #expect(try JSONValue(parsing: "[[]]", options: two) == [[]])
        #expect(try JSONValue(parsing: "[1]", options: two) == [1])
        #expect(throws: JSONParseError(reason: .tooDeep(maximum: 2), offset: 2, line: 1, column: 3, path: [.index(0), .index(0)])) {
            try JSONValue(parsing: "[[1]]", options: two)
        }
        // Far deeper than any stack would allow recursion: refused, not crashed.
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep, options: JSONParsingOptions(maximumDepth: .max)) }
    }

    @Test func lineAndColumnCountLinesAndScalars() {
        let error = failure("{\n  \"é\": 1,\n  \"b\" 2\n}")
        #expect(error?.reason == .expectedColon)
        #expect(error.map { ($0.line, $0.column) } ?? (0, 0) == (3, 7))
        #expect(error?.path == [.key("b")])
        #expect(error?.description == "invalid JSON at line 3, column 7 (byte 19): expected ':' after a key")
    }

    @Test func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)
        #expect(try JSONParser(options: JSONParsingOptions(skipsByteOrderMark: true)).parse(bytes) == ["a": 1])
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
    }

    @Test func parsesOneValueInsideALargerText() throws {
        var text = Array(#"{"type":"x","payload":[1,2]  ,"z":0}"#.utf8)
        let (value, end) = try text.withUnsafeMutableBufferPointer { bytes in
            var position = 22
            let value = try JSONValue.parseValue(in: UnsafeBufferPointer(bytes), at: &position)
            return (value, position)
        }
        #expect(value == [1, 2])
        #expect(end == 27)
    }
}
