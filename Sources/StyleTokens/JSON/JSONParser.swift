/// A strict RFC 8259 JSON parser that keeps object members in file order.
///
/// Foundation's parsers do not promise key order on Linux; themes are reported and turned
/// into CSS in file order, so they are parsed here. Duplicate keys are rejected (a
/// hand-edited theme with two `primary` colours is a mistake, not a choice).
/// Nesting deeper than `maximumDepth` is rejected so that hostile input cannot exhaust the stack.
///
/// Complexity: O(n) in the length of the input.
struct JSONParser {
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var path: [ThemeJSONPath.Segment] = []

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document; trailing non-whitespace is an error.
    static func parse(_ bytes: [UInt8]) throws(ThemeDecodingError) -> ThemeJSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 } // tolerate a UTF-8 BOM
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(ThemeDecodingError) -> ThemeJSONValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
        guard let byte = peek() else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character \(describe(byte))")
        }
    }

    private mutating func parseObject(depth: Int) throws(ThemeDecodingError) -> ThemeJSONValue {
        position += 1 // {
        var members = KeyedList<ThemeJSONValue>()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
            let key = try parseString()
            if members.contains(key) {
                throw .duplicateKey(path: ThemeJSONPath(segments: path + [.key(key)]).description)
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after key \"\(key)\"") }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            members[key] = try parseValue(depth: depth + 1)
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(ThemeDecodingError) -> ThemeJSONValue {
        position += 1 // [
        var elements: [ThemeJSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue(depth: depth + 1))
            path.removeLast()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseString() throws(ThemeDecodingError) -> String {
        position += 1 // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = position
        // Copies runs of plain bytes at once; escapes are decoded one by one.
        func flush(_ end: Int) throws(ThemeDecodingError) {
            guard runStart < end else { return }
            guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else { throw failure("invalid UTF-8 in string") }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                try flush(position)
                position += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(position)
                position += 1
                scalars.append(try parseEscape())
                runStart = position
            case 0x00..<0x20:
                throw failure("control character in string (escape it)")
            default:
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func parseEscape() throws(ThemeDecodingError) -> Unicode.Scalar {
        guard let byte = peek() else { throw failure("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHexQuad()
            if (0xD800..<0xDC00).contains(first) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else { throw failure("unpaired surrogate in \\u escape") }
                position += 2
                let second = try parseHexQuad()
                guard (0xDC00..<0xE000).contains(second),
                      let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                else { throw failure("invalid surrogate pair in \\u escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else { throw failure("unpaired surrogate in \\u escape") }
            return scalar
        default:
            throw failure("invalid escape \\\(describe(byte))")
        }
    }

    private mutating func parseHexQuad() throws(ThemeDecodingError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigitValue(byte) else { throw failure("expected four hex digits after \\u") }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(ThemeDecodingError) -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else if skipDigits() == 0 {
            throw failure("expected a digit")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw failure("expected a digit in exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw failure("number \(text) is out of range") }
        return number
    }

    // MARK: - Helpers

    private func peek(at offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    private mutating func expectLiteral(_ literal: String) throws(ThemeDecodingError) {
        for expected in literal.utf8 {
            guard peek() == expected else { throw failure("invalid literal, expected \(literal)") }
            position += 1
        }
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// A malformed-JSON error at the current position, with 1-based line and column.
    private func failure(_ reason: String) -> ThemeDecodingError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 { // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return .malformedJSON(line: line, column: column, reason: reason)
    }
}
