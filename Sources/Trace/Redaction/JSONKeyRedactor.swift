/// The scanner behind ``TraceRedactor/jsonKeys(_:)``.
///
/// Validates the JSON text (RFC 8259 grammar) while scanning it iteratively with an
/// explicit container stack, notes the byte range of every value whose member
/// name is one of `keys`, and rebuilds the text with those ranges replaced.
/// Invariant: the output is valid JSON whenever the input is; invalid input is
/// returned unchanged. O(n) time in the message's UTF-8 length.
struct JSONKeyRedactor: Sendable {
    /// The keys as UTF-8 bytes, for comparing unescaped member names without decoding them.
    private let keyBytes: [[UInt8]]
    /// The keys as strings, for member names written with escapes.
    private let keySet: Set<String>

    init(keys: some Sequence<String>) {
        let set = Set(keys)
        keySet = set
        keyBytes = set.map { Array($0.utf8) }
    }

    func redact(_ message: String) -> String {
        if keyBytes.isEmpty { return message }
        var text = message
        let ranges: [Range<Int>]? = text.withUTF8 { scan($0) }
        guard let ranges, !ranges.isEmpty else { return message }
        let replacement = Array("\"\(TraceRedactor.placeholder)\"".utf8)
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var last = 0
            for range in ranges {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[last..<range.lowerBound]))
                out.append(contentsOf: replacement)
                last = range.upperBound
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[last...]))
            return String(decoding: out, as: UTF8.self)
        }
    }

    // MARK: - Scanner

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The ranges of values to redact, in order, or `nil` when `b` is not valid JSON.
    private func scan(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        let n = b.count
        var i = 0
        var stack: [Bool] = []            // true: object, false: array
        var ranges: [Range<Int>] = []
        var redactNext = false            // the next value belongs to a redacted key
        var pending: (start: Int, depth: Int)? = nil

        @inline(__always) func skipWhitespace() {
            while i < n {
                let c = b[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }

        /// Reads a member name and its colon; sets `redactNext`. False when invalid.
        func readKeyAndColon() -> Bool {
            skipWhitespace()
            guard i < n, b[i] == Self.quote else { return false }
            let start = i + 1
            guard let (end, escaped) = Self.scanString(b, from: i) else { return false }
            i = end
            if pending == nil {
                redactNext = escaped
                    ? keySet.contains(Self.unescape(b, start ..< end - 1) ?? "")
                    : matchesKey(b, start ..< end - 1)
            }
            skipWhitespace()
            guard i < n, b[i] == UInt8(ascii: ":") else { return false }
            i += 1
            return true
        }

        value: while true {
            skipWhitespace()
            guard i < n else { return nil }
            if redactNext {
                pending = (i, stack.count)
                redactNext = false
            }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipWhitespace()
                if i < n && b[i] == UInt8(ascii: "}") {
                    i += 1
                } else {
                    stack.append(true)
                    guard readKeyAndColon() else { return nil }
                    continue value
                }
            case UInt8(ascii: "["):
                i += 1
                skipWhitespace()
                if i < n && b[i] == UInt8(ascii: "]") {
                    i += 1
                } else {
                    stack.append(false)
                    continue value
                }
            case Self.quote:
                guard let (end, _) = Self.scanString(b, from: i) else { return nil }
                i = end
            case UInt8(ascii: "t"):
                guard Self.literal(b, at: i, "true") else { return nil }
                i += 4
            case UInt8(ascii: "f"):
                guard Self.literal(b, at: i, "false") else { return nil }
                i += 5
            case UInt8(ascii: "n"):
                guard Self.literal(b, at: i, "null") else { return nil }
                i += 4
            default:
                guard let end = Self.scanNumber(b, from: i) else { return nil }
                i = end
            }
            // A value ended at i; close containers as far as they end here.
            while true {
                if let p = pending, p.depth == stack.count {
                    ranges.append(p.start ..< i)
                    pending = nil
                }
                skipWhitespace()
                guard let isObject = stack.last else {
                    return i == n ? ranges : nil
                }
                guard i < n else { return nil }
                let c = b[i]
                i += 1
                if c == UInt8(ascii: ",") {
                    if isObject {
                        guard readKeyAndColon() else { return nil }
                    }
                    continue value
                } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    stack.removeLast()
                } else {
                    return nil
                }
            }
        }
    }

    private func matchesKey(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let count = range.count
        for key in keyBytes where key.count == count {
            var equal = true
            var j = 0
            while j < count {
                if key[j] != b[range.lowerBound + j] { equal = false; break }
                j += 1
            }
            if equal { return true }
        }
        return false
    }

    /// Scans a string literal starting at the opening quote at `from`.
    /// Returns the index after the closing quote and whether it contains escapes.
    static func scanString(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> (Int, Bool)? {
        let n = b.count
        var i = from + 1
        var escaped = false
        while i < n {
            let c = b[i]
            if c == quote { return (i + 1, escaped) }
            if c < 0x20 { return nil }
            if c == backslash {
                escaped = true
                guard i + 1 < n else { return nil }
                switch b[i + 1] {
                case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 5 < n, (2...5).allSatisfy({ hexValue(b[i + $0]) != nil }) else { return nil }
                    i += 6
                default:
                    return nil
                }
            } else {
                i += 1
            }
        }
        return nil
    }

    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Decodes the contents of an already validated string literal (without quotes).
    /// Returns nil for a lone surrogate, which no key can equal.
    static func unescape(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        func flushBytes() {
            if !bytes.isEmpty {
                scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | (hexValue(b[at + $1]) ?? 0) }
        }
        var i = range.lowerBound
        while i < range.upperBound {
            let c = b[i]
            guard c == backslash else { bytes.append(c); i += 1; continue }
            flushBytes()
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = hex4(i)
                i += 4
                if (0xD800...0xDBFF).contains(code) {
                    guard i + 6 <= range.upperBound, b[i] == backslash, b[i + 1] == UInt8(ascii: "u") else { return nil }
                    let low = hex4(i + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(scalar)
            default: scalars.append(Unicode.Scalar(e))  // " \ /
            }
        }
        flushBytes()
        return String(scalars)
    }

    static func literal(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return word.withUTF8Buffer { w in
            (0..<count).allSatisfy { b[i + $0] == w[$0] }
        }
    }

    /// Scans `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; returns the end index.
    static func scanNumber(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let n = b.count
        var i = from
        func isDigit(_ k: Int) -> Bool { k < n && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9") }
        if i < n && b[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return nil }
        if b[i] == UInt8(ascii: "0") { i += 1 } else { while isDigit(i) { i += 1 } }
        if i < n && b[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return nil }
            while isDigit(i) { i += 1 }
        }
        if i < n && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return nil }
            while isDigit(i) { i += 1 }
        }
        return i
    }
}
