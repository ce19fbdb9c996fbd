import JSEngine

/// Reads a theme's bytes into a `JSONValue` with JSEngine's parser (which keeps object key
/// order), adding what a theme needs on top: a UTF-8 check, a tolerated UTF-8 byte-order mark,
/// the stricter checks of `ThemeJSONStructureCheck`, and syntax errors with line and column
/// worded as this module has always worded them.
enum ThemeJSONReader {
    /// Parses one JSON document.
    ///
    /// - Throws: `ThemeDecodingError.notUTF8`, `.malformedJSON` or `.duplicateKey`: the first
    ///   problem in the file.
    /// - Complexity: O(n) in the length of `bytes`.
    static func parse(_ bytes: [UInt8]) throws(ThemeDecodingError) -> JSONValue {
        let bodyStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let text = String(validating: bytes[bodyStart...], as: UTF8.self) else { throw .notUTF8 }
        let parsed: Result<JSONValue, JSONParseError>
        do throws(JSONParseError) { parsed = .success(try JSONValue(parsing: text)) } catch { parsed = .failure(error) }

        // Offsets in JSEngine's error count from the start of `text`, after any byte-order mark.
        let syntaxErrorOffset: Int? = if case .failure(let error) = parsed { bodyStart + error.offset } else { nil }
        let outcome: Result<ThemeJSONStructureCheck.Context, ThemeDecodingError> = bytes.withUnsafeBufferPointer { all in
            let checked = UnsafeBufferPointer(rebasing: all[..<min(syntaxErrorOffset ?? all.count, all.count)])
            do throws(ThemeDecodingError) {
                return .success(try ThemeJSONStructureCheck.check(checked, from: bodyStart))
            } catch {
                return .failure(error)
            }
        }
        let context = try outcome.get()
        switch parsed {
        case .success(let value):
            return value
        case .failure(let error):
            throw malformed(error, at: bodyStart + error.offset, in: bytes, context: context)
        }
    }

    /// A JSEngine syntax error as a theme error: line and column instead of a byte offset, and
    /// the reasons (and, where they differ, the positions) this module reported before it used
    /// JSEngine's parser. The wording is pinned by the tests; an unknown reason passes through.
    static func malformed(_ error: JSONParseError, at offset: Int, in bytes: [UInt8],
                          context: ThemeJSONStructureCheck.Context) -> ThemeDecodingError {
        var offset = offset
        let reason: String
        // Two of JSEngine's reasons name a value ("…, expected true", "… than 512"): match their stems.
        let stem = ["invalid literal", "nesting deeper than"].first { error.reason.hasPrefix($0) } ?? error.reason
        switch stem {
        case "unexpected end of text, expected a value":
            reason = "unexpected end of input"
        case "unexpected character, expected a value":
            reason = offset < bytes.count ? "unexpected character \(describe(bytes[offset]))" : "unexpected end of input"
        case "expected a string key":
            reason = "expected a key in double quotes"
        case "expected ':'":
            reason = context.lastKey.map { "expected ':' after key \"\($0)\"" } ?? "expected ':'"
        case "expected ',' or '}'", "unexpected end of text in an object":
            reason = "expected ',' or '}' in object"
        case "expected ',' or ']'", "unexpected end of text in an array":
            reason = "expected ',' or ']' in array"
        case "leading zero in a number":
            // The number ended at the zero; what follows does not fit where it stands.
            reason = switch context.insideObject {
            case true?: "expected ',' or '}' in object"
            case false?: "expected ',' or ']' in array"
            case nil: "unexpected text after the JSON value"
            }
        case "unexpected end of text", "invalid literal":
            // JSEngine points at the literal's start; point at the first byte that differs.
            let literal = switch offset < bytes.count ? bytes[offset] : 0 {
            case UInt8(ascii: "t"): "true"
            case UInt8(ascii: "f"): "false"
            default: "null"
            }
            for expected in literal.utf8 {
                guard offset < bytes.count, bytes[offset] == expected else { break }
                offset += 1
            }
            reason = "invalid literal, expected \(literal)"
        case "control character in a string":
            reason = "control character in string (escape it)"
        case "unterminated string":
            let backslashes = bytes[..<min(offset, bytes.count)].reversed().prefix { $0 == UInt8(ascii: "\\") }.count
            reason = backslashes % 2 == 1 ? "unterminated escape" : "unterminated string"
        case "invalid escape sequence":
            // JSEngine points at the escape letter; report just past it, naming it.
            reason = offset < bytes.count ? "invalid escape \\\(describe(bytes[offset]))" : "unterminated escape"
            offset += 1
        case "invalid hex digit in \\u escape", "truncated \\u escape":
            var digits = 0
            while digits < 4, offset < bytes.count, bytes[offset].isHexDigit {
                offset += 1
                digits += 1
            }
            reason = "expected four hex digits after \\u"
        case "expected a digit in the exponent":
            reason = "expected a digit in exponent"
        case "nesting deeper than":
            // Not reached: the structure check stops at a shallower depth first.
            reason = "nesting deeper than \(ThemeJSONStructureCheck.maximumDepth) levels"
        default:
            reason = error.reason
        }
        let location = JSONSourceLocation(offset: offset, in: bytes)
        return .malformedJSON(line: location.line, column: location.column, reason: reason)
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
