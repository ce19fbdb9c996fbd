extension JSONParseError {
    /// What was wrong with the text; `description` words it for people.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A value should start here: `found` is the byte there, `nil` at the end of the text.
        case expectedValue(found: UInt8?)
        /// An object key (a string) should start here.
        case expectedKey
        /// A `:` should follow the key (the last element of the error's path).
        case expectedColon
        /// After an object member: a `,` or `}` should follow.
        case expectedCommaOrObjectEnd
        /// After an array element: a `,` or `]` should follow.
        case expectedCommaOrArrayEnd
        /// Something other than whitespace follows the value.
        case textAfterValue
        /// `true`, `false` or `null` misspelled or cut short; the offset is the first byte that differs.
        case invalidLiteral(expected: String)
        /// An unescaped control character (below U+0020) inside a string.
        case controlCharacterInString
        /// The text ends inside a string.
        case unterminatedString
        /// The text ends right after a backslash.
        case unterminatedEscape
        /// A backslash followed by this byte, which starts no escape.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hex digits; the offset is the first byte that is not one.
        case invalidUnicodeEscape
        /// Half a surrogate pair, with ``JSONParsingOptions/LoneSurrogates/refuse``.
        case loneSurrogate
        /// A high surrogate followed by a `\u` escape that is not a low one, with ``JSONParsingOptions/LoneSurrogates/refuse``.
        case invalidSurrogatePair
        /// A number without digits where they are required.
        case expectedDigit
        /// A number with a `.` and no digit after it.
        case expectedFractionDigit
        /// A number with an exponent and no digit in it.
        case expectedExponentDigit
        /// A number beyond `Double`'s range, with ``JSONParsingOptions/NumberRange/finite``.
        case numberOutOfRange(String)
        /// A value nested deeper than the maximum (``JSONParsingOptions/maximumDepth``).
        case tooDeep(maximum: Int)
        /// A key the object already has, with ``JSONParsingOptions/DuplicateKeys/refuse``.
        case duplicateKey(String)

        public var description: String {
            switch self {
            case .expectedValue(let found?): "unexpected character \(Self.describe(found)), expected a value"
            case .expectedValue(nil): "unexpected end of text, expected a value"
            case .expectedKey: "expected a key in double quotes"
            case .expectedColon: "expected ':' after a key"
            case .expectedCommaOrObjectEnd: "expected ',' or '}' in an object"
            case .expectedCommaOrArrayEnd: "expected ',' or ']' in an array"
            case .textAfterValue: "unexpected text after the JSON value"
            case .invalidLiteral(let expected): "invalid literal, expected \(expected)"
            case .controlCharacterInString: "control character in a string (escape it)"
            case .unterminatedString: "unterminated string"
            case .unterminatedEscape: "unterminated escape"
            case .invalidEscape(let byte): "invalid escape \\\(Self.describe(byte))"
            case .invalidUnicodeEscape: "expected four hex digits after \\u"
            case .loneSurrogate: "unpaired surrogate in \\u escape"
            case .invalidSurrogatePair: "invalid surrogate pair in \\u escape"
            case .expectedDigit: "expected a digit"
            case .expectedFractionDigit: "expected a digit after '.'"
            case .expectedExponentDigit: "expected a digit in exponent"
            case .numberOutOfRange(let text): "number \(text) is out of range"
            case .tooDeep(let maximum): "nesting deeper than \(maximum) levels"
            case .duplicateKey(let key): "duplicate key \(JSONValue.string(key).jsonText())"
            }
        }

        /// `'@'` for a printable ASCII byte, `byte 0xc3` otherwise.
        public static func describe(_ byte: UInt8) -> String {
            (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        }
    }
}
