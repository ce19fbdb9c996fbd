import Testing
import StateHubJSON

/// The tokenizer on its own: kinds and byte ranges.
@Suite("JSON tokenizer", .tags(.unit))
struct TokenizerTests {
    func tokens(_ text: String) throws -> [(JSONToken.Kind, String)] {
        var text = text
        return try text.withUTF8 { bytes in
            var tokenizer = JSONTokenizer(bytes: bytes)
            var result: [(JSONToken.Kind, String)] = []
            while true {
                let token = try tokenizer.next()
                if token.kind == .end { return result }
                result.append((token.kind, String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)))
            }
        }
    }

    @Test func kindsAndRanges() throws {
        let found = try tokens(#" {"a\n" : [ -1.5e3, true,false , null ] } "#)
        #expect(found.map(\.0) == [.beginObject, .string, .colon, .beginArray, .number, .comma, .true, .comma, .false, .comma, .null, .endArray, .endObject])
        #expect(found.map(\.1) == ["{", #""a\n""#, ":", "[", "-1.5e3", ",", "true", ",", "false", ",", "null", "]", "}"])
    }

    @Test func stringsDecodeAndKeysMatchByBytes() throws {
        var text = #"["plain", "esc\"aped\u00e9"]"#
        try text.withUTF8 { bytes in
            var tokenizer = JSONTokenizer(bytes: bytes)
            _ = try tokenizer.next()
            let plain = try tokenizer.next()
            #expect(!plain.hasEscapes)
            #expect(tokenizer.isString(plain, equalTo: "plain"))
            #expect(!tokenizer.isString(plain, equalTo: "plai"))
            _ = try tokenizer.next()
            let escaped = try tokenizer.next()
            #expect(escaped.hasEscapes)
            #expect(tokenizer.string(of: escaped) == "esc\"aped\u{E9}")
        }
    }

    @Test func anUnknownByteIsAnInvalidToken() throws {
        #expect(try tokens("@").map(\.0) == [.invalid])
    }
}
