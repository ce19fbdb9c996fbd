import OrderedCollections

/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset in the UTF-8 text where the problem was found.
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259), keeping object key order.
    ///
    /// Duplicate keys keep the last value, as `JSON.parse` does.
    /// - Complexity: O(n) in the length of the text.
    /// - Throws: `JSONParseError` naming the byte offset and what was expected.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
            var parser = JSONTextParser(bytes: bytes)
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        switch result {
        case .success(let value): self = value
        case .failure(let error): throw error
        }
    }

    /// The compact JSON text of the value, as `JSON.stringify` would write it.
    ///
    /// Non-finite numbers are written as `null`, as `JSON.stringify` does.
    /// - Complexity: O(n) in the size of the value.
    public func jsonText() -> String {
        var output = ""
        output.reserveCapacity(64)
        JSONValue.write(self, into: &output)
        return output
    }

    static func write(_ value: JSONValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .number(let n): writeNumber(n, into: &output)
        case .string(let s): writeString(s, into: &output)
        case .array(let elements):
            output += "["
            var first = true
            for element in elements {
                if !first { output += "," }
                first = false
                write(element, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            var first = true
            for (key, member) in members {
                if !first { output += "," }
                first = false
                writeString(key, into: &output)
                output += ":"
                write(member, into: &output)
            }
            output += "}"
        }
    }

    /// Writes `n` as JavaScript's `Number.prototype.toString` (and so `JSON.stringify`) does:
    /// the shortest digits that read back as the same double — Swift's `description` finds
    /// those — laid out by ECMA-262's rules: plain notation for decimal exponents from -6 to
    /// 20 (`1e20` → `100000000000000000000`, `0.000001`), exponent notation outside
    /// (`1e+21`, `1e-7`). `-0` is written `0`; non-finite numbers `null`.
    static func writeNumber(_ n: Double, into output: inout String) {
        guard n.isFinite else { output += "null"; return }
        if n == 0 { output += "0"; return }
        if n.rounded() == n, abs(n) <= 9_007_199_254_740_992 {
            output += String(Int64(n))
            return
        }
        let text = abs(n).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].drop(while: { $0 == "+" })) ?? 0
        }
        let integerPart: Substring
        let fractionPart: Substring
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        } else {
            integerPart = mantissa
            fractionPart = ""
        }
        // value = 0.digits × 10^point
        var digits = Array((integerPart + fractionPart).utf8)
        var point = integerPart.count + exponent
        while digits.first == UInt8(ascii: "0") { digits.removeFirst(); point -= 1 }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        guard k > 0 else { output += "0"; return }
        if n < 0 { output += "-" }
        let digitText = String(decoding: digits, as: UTF8.self)
        if k <= point && point <= 21 {
            output += digitText + String(repeating: "0", count: point - k)
        } else if 0 < point && point <= 21 {
            output += String(decoding: digits[..<point], as: UTF8.self) + "." + String(decoding: digits[point...], as: UTF8.self)
        } else if -6 < point && point <= 0 {
            output += "0." + String(repeating: "0", count: -point) + digitText
        } else {
            let e = point - 1
            output += String(decoding: digits[..<1], as: UTF8.self)
            if k > 1 { output += "." + String(decoding: digits[1...], as: UTF8.self) }
            output += e < 0 ? "e-\(-e)" : "e+\(e)"
        }
    }

    static func writeString(_ s: String, into output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            output += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{08}": output += "\\b"
                case "\u{0C}": output += "\\f"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        output.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        output += "\""
    }
}

/// A byte-level recursive-descent JSON parser over UTF-8.
///
/// Invariant: `position` always indexes the next unread byte; nesting is bounded by
/// `maximumDepth` so hostile input cannot overflow the stack.
struct JSONTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position != bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of text, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character, expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of text") }
        let start = literal.utf8Start
        for i in 0..<count where bytes[position + i] != start[i] {
            throw error("invalid literal, expected \(literal)")
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth)") }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        // Keys and values are collected first and the dictionary built once: much cheaper
        // than inserting one by one. A duplicate key (rare) falls back to insertion, where
        // the last value wins, as in `JSON.parse`.
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(8)
        values.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            keys.append(try parseString())
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            values.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of text in an object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; break }
            throw error("expected ',' or '}'")
        }
        if !Self.hasDuplicates(keys) {
            return .object(OrderedDictionary(uncheckedUniqueKeys: keys, values: values))
        }
        var members = OrderedDictionary<String, JSONValue>()
        for (key, value) in zip(keys, values) { members[key] = value }
        return .object(members)
    }

    /// Pairwise for the small objects messages are made of, hashed beyond that.
    static func hasDuplicates(_ keys: [String]) -> Bool {
        if keys.count <= 8 {
            for i in keys.indices.dropFirst() where keys[..<i].contains(keys[i]) { return true }
            return false
        }
        return Set(keys).count != keys.count
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth)") }
        position += 1
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of text in an array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        position += 1 // opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            position += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate: combine with the low surrogate that should follow.
                    if position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            appendScalar(0xFFFD, to: &scalars)
                            code = low
                        }
                    } else {
                        code = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    code = 0xFFFD // a lone low surrogate, replaced as JavaScriptCore's UTF-8 conversion does
                }
                appendScalar(code, to: &scalars)
            default:
                position -= 1
                throw error("invalid escape sequence")
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    func appendScalar(_ code: UInt32, to bytes: inout [UInt8]) {
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        var isInteger = true
        var integer: Int64 = 0
        var negative = false
        if bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
            throw error("expected a digit")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                throw error("leading zero in a number")
            }
        } else {
            var digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                if digits < 15 { integer = integer * 10 + Int64(bytes[position] - UInt8(ascii: "0")) } else { isInteger = false }
                digits += 1
                position += 1
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            if position == fractionStart { throw error("expected a digit after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            if position == exponentStart { throw error("expected a digit in the exponent") }
        }
        if isInteger { return negative ? -Double(integer) : Double(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(offset: start, reason: "number out of range") }
        return value
    }
}

extension JSONValue {
    /// Parses one JSON value from UTF-8 `bytes` at `position` (leading whitespace skipped)
    /// and moves `position` past it: for readers of a larger document that handle some of
    /// its structure themselves (the hub's message decoder).
    ///
    /// - Complexity: O(n) in the length of the value.
    public static func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(JSONParseError) -> JSONValue {
        var parser = JSONTextParser(bytes: bytes)
        parser.position = position
        let value = try parser.parseValue(depth: 0)
        position = parser.position
        return value
    }
}
