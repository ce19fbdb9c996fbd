/// Splits UTF-8 JSON text into tokens with their byte ranges: the one place in the package
/// that knows JSON's whitespace, string escapes, surrogates and number grammar.
///
/// The tokenizer checks each token on its own (a string's escapes, a number's digits, a
/// literal's spelling); how tokens fit together is ``JSONParser``'s business, or a caller's
/// that only needs some of the structure (matching keys, redacting values by range).
///
/// Invariant: `position` is the offset of the next unread byte.
/// - Complexity: each call to ``next()`` is O(length of the token and the whitespace before it).
public struct JSONTokenizer {
    /// The whole text.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next unread byte.
    public var position: Int
    /// With `.refuse`, strings are checked for lone surrogates while they are scanned.
    public var loneSurrogates: JSONParsingOptions.LoneSurrogates

    public init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0, loneSurrogates: JSONParsingOptions.LoneSurrogates = .replace) {
        self.bytes = bytes
        self.position = position
        self.loneSurrogates = loneSurrogates
    }

    /// An error at `offset`, with its line and column in ``bytes``.
    public func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
        let location = JSONSourceLocation(offset: offset, in: bytes)
        return JSONParseError(reason: reason, offset: offset, line: location.line, column: location.column)
    }

    /// Moves past spaces, tabs, line feeds and carriage returns.
    @inline(__always)
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next token; `.end` once the text is used up.
    ///
    /// - Throws: a malformed string, number or literal.
    @inline(__always)
    public mutating func next() throws(JSONParseError) -> JSONToken {
        skipWhitespace()
        let start = position
        guard start < bytes.count else { return JSONToken(kind: .end, range: start..<start) }
        let kind: JSONToken.Kind
        switch bytes[start] {
        case UInt8(ascii: "\""): return try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try scanNumber()
        case UInt8(ascii: "{"): kind = .beginObject
        case UInt8(ascii: "}"): kind = .endObject
        case UInt8(ascii: "["): kind = .beginArray
        case UInt8(ascii: "]"): kind = .endArray
        case UInt8(ascii: ","): kind = .comma
        case UInt8(ascii: ":"): kind = .colon
        case UInt8(ascii: "t"): try scanLiteral("true"); return JSONToken(kind: .true, range: start..<position)
        case UInt8(ascii: "f"): try scanLiteral("false"); return JSONToken(kind: .false, range: start..<position)
        case UInt8(ascii: "n"): try scanLiteral("null"); return JSONToken(kind: .null, range: start..<position)
        default: kind = .invalid
        }
        position += 1
        return JSONToken(kind: kind, range: start..<position)
    }

    /// Whether `token` is a string without escapes whose text is exactly `name`; compares
    /// bytes, makes no string.
    @inline(__always)
    public func isString(_ token: JSONToken, equalTo name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard token.kind == .string, !token.hasEscapes, token.range.count == count + 2 else { return false }
        let start = name.utf8Start
        let base = token.range.lowerBound + 1
        for offset in 0..<count where bytes[base + offset] != start[offset] { return false }
        return true
    }

    // MARK: Literals

    private mutating func scanLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == start[offset] else {
                throw error(.invalidLiteral(expected: "\(literal)"), at: position)
            }
            position += 1
        }
    }

    // MARK: Numbers

    @inline(__always)
    private mutating func scanNumber() throws(JSONParseError) -> JSONToken {
        let start = position
        var negative = false
        // The digits as one integer (the mantissa), while there are at most 15 of them: below
        // 2^53, so exact as a `Double`.
        var mantissa: Int64 = 0
        var digits = 0
        if bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        guard position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 else { throw error(.expectedDigit, at: position) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1 // JSON has no leading zeros: a digit after it is the next token's problem
        } else {
            while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
                if digits < 15 { mantissa = mantissa &* 10 &+ Int64(digit) }
                digits += 1
                position += 1
            }
        }
        var exponent = 0 // the power of ten the mantissa is scaled by
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
                if digits < 15 { mantissa = mantissa &* 10 &+ Int64(digit) }
                digits += 1
                exponent -= 1
                position += 1
            }
            if position == fractionStart { throw error(.expectedFractionDigit, at: position) }
        }
        var exactExponent = true
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            let exponentStart = position
            var written = 0
            while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
                if written < 1_000 { written = written * 10 + Int(digit) } else { exactExponent = false }
                position += 1
            }
            if position == exponentStart { throw error(.expectedExponentDigit, at: position) }
            exponent += exponentNegative ? -written : written
        }
        // Clinger's fast path: a mantissa below 2^53 and a power of ten up to 10^22 are both
        // exact doubles, so one IEEE multiplication or division rounds the result correctly:
        // the same `Double` as reading the text (`strtod`), without making a `String`.
        var value = Double.nan
        if digits <= 15, exactExponent, exponent >= -22, exponent <= 22 {
            let magnitude = exponent < 0 ? Double(mantissa) / Self.powersOfTen[-exponent] : Double(mantissa) * Self.powersOfTen[exponent]
            value = negative ? -magnitude : magnitude
        }
        return JSONToken(kind: .number, range: start..<position, simpleNumber: value)
    }

    /// 10^0 … 10^22: every one exact as a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a number token, as `JSON.parse` reads it (the nearest `Double`).
    ///
    /// - Throws: ``JSONParseError/Reason/numberOutOfRange(_:)`` (at the number's end) when it
    ///   is beyond `Double`'s range and `range` is `.finite`.
    public func number(of token: JSONToken, range: JSONParsingOptions.NumberRange = .unbounded) throws(JSONParseError) -> Double {
        if !token.simpleNumber.isNaN { return token.simpleNumber }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)
        // The tokenizer checked the grammar, so only range can go wrong here.
        let value = Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
        if range == .finite, !value.isFinite { throw error(.numberOutOfRange(text), at: token.range.upperBound) }
        return value
    }

    // MARK: Strings

    @inline(__always)
    private mutating func scanString() throws(JSONParseError) -> JSONToken {
        let start = position
        var cursor = start + 1
        var hasEscapes = false
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                position = cursor + 1
                return JSONToken(kind: .string, range: start..<position, hasEscapes: hasEscapes)
            }
            if byte < 0x20 { throw error(.controlCharacterInString, at: cursor) }
            if byte != UInt8(ascii: "\\") {
                cursor += 1
                continue
            }
            hasEscapes = true
            guard cursor + 1 < bytes.count else { throw error(.unterminatedEscape, at: cursor + 1) }
            switch bytes[cursor + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                cursor += 2
            case UInt8(ascii: "u"):
                let code = try hexQuad(at: cursor + 2)
                cursor += 6
                if loneSurrogates == .refuse { try checkSurrogate(code, endingAt: &cursor) }
            case let other:
                throw error(.invalidEscape(other), at: cursor + 2)
            }
        }
        throw error(.unterminatedString, at: bytes.count)
    }

    /// With `.refuse`: a high surrogate must be followed by a `\u` low one (consumed here);
    /// a low one must not stand alone.
    private func checkSurrogate(_ code: UInt32, endingAt cursor: inout Int) throws(JSONParseError) {
        if (0xDC00...0xDFFF).contains(code) { throw error(.loneSurrogate, at: cursor) }
        guard (0xD800...0xDBFF).contains(code) else { return }
        guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "\\"), bytes[cursor + 1] == UInt8(ascii: "u") else {
            throw error(.loneSurrogate, at: cursor)
        }
        let low = try hexQuad(at: cursor + 2)
        cursor += 6
        guard (0xDC00...0xDFFF).contains(low) else { throw error(.invalidSurrogatePair, at: cursor) }
    }

    /// The four hex digits at `start`.
    private func hexQuad(at start: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for offset in start..<start + 4 {
            guard offset < bytes.count, let digit = Self.hexDigit(bytes[offset]) else { throw error(.invalidUnicodeEscape, at: offset) }
            value = value << 4 | digit
        }
        return value
    }

    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The text of a string token, escapes decoded; a lone surrogate becomes U+FFFD (a
    /// tokenizer with `.refuse` has already refused it while scanning).
    public func string(of token: JSONToken) -> String {
        let body = UnsafeBufferPointer(rebasing: bytes[token.range.lowerBound + 1..<token.range.upperBound - 1])
        guard token.hasEscapes else { return String(decoding: body, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(body.count)
        var cursor = 0
        while cursor < body.count {
            let byte = body[cursor]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                cursor += 1
                continue
            }
            let escape = body[cursor + 1]
            cursor += 2
            switch escape {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var code = Self.hexValue(body, at: cursor)
                cursor += 4
                if (0xD800...0xDBFF).contains(code) {
                    // Combine with a low surrogate right after; anything else leaves this one
                    // lone (U+FFFD) and is read on its own.
                    if cursor + 6 <= body.count, body[cursor] == UInt8(ascii: "\\"), body[cursor + 1] == UInt8(ascii: "u"),
                       case let low = Self.hexValue(body, at: cursor + 2), (0xDC00...0xDFFF).contains(low)
                    {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        cursor += 6
                    } else {
                        code = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    code = 0xFFFD
                }
                Self.appendUTF8(code, to: &decoded)
            default: decoded.append(escape) // `"`, `\` and `/` stand for themselves
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ body: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in start..<start + 4 { value = value << 4 | (hexDigit(body[offset]) ?? 0) }
        return value
    }

    private static func appendUTF8(_ code: UInt32, to bytes: inout [UInt8]) {
        switch code {
        case ..<0x80:
            bytes.append(UInt8(code))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | code >> 6))
            bytes.append(UInt8(0x80 | code & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | code >> 12))
            bytes.append(UInt8(0x80 | code >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | code & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | code >> 18))
            bytes.append(UInt8(0x80 | code >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | code >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | code & 0x3F))
        }
    }
}
