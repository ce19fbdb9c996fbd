import JSEngine

/// The checks a theme needs beyond what JSEngine's JSON parser does, made by one pass over
/// the text's structure (no values are built; keys are decoded by JSEngine).
///
/// JSEngine's parser follows `JSON.parse`: a repeated key keeps the last value, nesting may go
/// to 512 levels, lone `\u` surrogates become U+FFFD and `1e999` is infinity. A theme is stricter:
/// a duplicate key is an error with its path (a hand-edited theme with two `primary` colours is a
/// mistake, not a choice), nesting is limited to `maximumDepth` levels, and unpaired surrogates
/// and numbers out of `Double`'s range are malformed JSON.
///
/// The pass reads `bytes` up to its end only: the caller hands it the text before the place
/// where JSEngine found a syntax error (if any), so that whichever problem comes first in the
/// file is reported, and it relies on that prefix being well-formed JSON so far.
///
/// Complexity: O(n) in the length of `bytes`.
struct ThemeJSONStructureCheck {
    /// Values may sit inside at most this many arrays and objects.
    static let maximumDepth = 256

    /// Where the pass stopped without finding a problem: enough to word a syntax error found
    /// there the way this module always has.
    struct Context {
        /// The last object key read.
        var lastKey: String?
        /// Whether the innermost open container is an object (`true`), an array (`false`), or
        /// there is none (`nil`).
        var insideObject: Bool?
    }

    /// One open array or object.
    private struct Frame {
        let isObject: Bool
        var keys: Set<String> = []
        var expectingKey: Bool
        var index = 0
        /// The member or element being read, once it has started.
        var child: ThemeJSONPath.Segment?

        init(isObject: Bool) {
            self.isObject = isObject
            self.expectingKey = isObject
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private var frames: [Frame] = []
    private var lastKey: String?

    private init(bytes: UnsafeBufferPointer<UInt8>, start: Int) {
        self.bytes = bytes
        self.position = start
    }

    /// Checks `bytes` from `start` to its end.
    ///
    /// - Throws: `ThemeDecodingError.duplicateKey` with the path of the second occurrence, or
    ///   `.malformedJSON` (nesting too deep, unpaired surrogate, number out of range); the first
    ///   problem in file order.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(ThemeDecodingError) -> Context {
        var pass = ThemeJSONStructureCheck(bytes: bytes, start: start)
        try pass.run()
        return Context(lastKey: pass.lastKey, insideObject: pass.frames.last?.isObject)
    }

    private mutating func run() throws(ThemeDecodingError) {
        while true {
            while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
            guard position < bytes.count else { return }
            switch bytes[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                try startValue()
                frames.append(Frame(isObject: bytes[position] == UInt8(ascii: "{")))
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !frames.isEmpty { frames.removeLast() }
                position += 1
            case UInt8(ascii: ","):
                if let top = frames.indices.last {
                    if frames[top].isObject { frames[top].expectingKey = true } else { frames[top].index += 1 }
                }
                position += 1
            case UInt8(ascii: ":"):
                position += 1
            case UInt8(ascii: "\""):
                if let top = frames.indices.last, frames[top].expectingKey {
                    guard try readKey(in: top) else { return }
                } else {
                    try startValue()
                    guard let end = try endOfString() else { return }
                    position = end
                }
            default:
                try startValue()
                try skipScalar()
            }
        }
    }

    /// A value begins at `position`: refuses it when too deeply nested and names it in the path.
    private mutating func startValue() throws(ThemeDecodingError) {
        if frames.count >= Self.maximumDepth {
            throw malformed(at: position, "nesting deeper than \(Self.maximumDepth) levels")
        }
        if let top = frames.indices.last, !frames[top].isObject {
            frames[top].child = .index(frames[top].index)
        }
    }

    /// Reads the key at `position` into the object `frames[top]`; false when the text ends inside it.
    private mutating func readKey(in top: Int) throws(ThemeDecodingError) -> Bool {
        guard let end = try endOfString() else { return false }
        var cursor = position
        guard case .string(let key)? = try? JSONValue.parseValue(in: bytes, at: &cursor) else { return false }
        if frames[top].keys.contains(key) {
            let enclosing = frames[..<top].compactMap(\.child)
            throw .duplicateKey(path: ThemeJSONPath(segments: enclosing + [.key(key)]).description)
        }
        frames[top].keys.insert(key)
        frames[top].child = .key(key)
        frames[top].expectingKey = false
        lastKey = key
        position = end
        return true
    }

    /// The offset just past the string that opens at `position`, or nil when the text ends first;
    /// refuses `\u` escapes that are not whole surrogate pairs.
    private func endOfString() throws(ThemeDecodingError) -> Int? {
        var cursor = position + 1
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "\""):
                return cursor + 1
            case UInt8(ascii: "\\"):
                guard cursor + 1 < bytes.count else { return nil }
                guard bytes[cursor + 1] == UInt8(ascii: "u") else {
                    cursor += 2
                    continue
                }
                guard let first = hexQuad(at: cursor + 2) else { return nil }
                cursor += 6
                if (0xD800..<0xDC00).contains(first) {
                    guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "\\"), bytes[cursor + 1] == UInt8(ascii: "u") else {
                        throw malformed(at: cursor, "unpaired surrogate in \\u escape")
                    }
                    guard let second = hexQuad(at: cursor + 2) else { return nil }
                    cursor += 6
                    guard (0xDC00..<0xE000).contains(second) else { throw malformed(at: cursor, "invalid surrogate pair in \\u escape") }
                } else if (0xDC00..<0xE000).contains(first) {
                    throw malformed(at: cursor, "unpaired surrogate in \\u escape")
                }
            default:
                cursor += 1
            }
        }
        return nil
    }

    /// Skips a number or literal; refuses a number too large for a `Double`.
    private mutating func skipScalar() throws(ThemeDecodingError) {
        let start = position
        while position < bytes.count, !Self.endsScalar(bytes[position]) { position += 1 }
        guard bytes[start] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start]) else { return }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if let number = Double(text), !number.isFinite {
            throw malformed(at: position, "number \(text) is out of range")
        }
    }

    private func hexQuad(at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            guard let digit = UInt32(String(Unicode.Scalar(byte)), radix: 16) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    private func malformed(at offset: Int, _ reason: String) -> ThemeDecodingError {
        let location = JSONSourceLocation(offset: offset, in: bytes)
        return .malformedJSON(line: location.line, column: location.column, reason: reason)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"), UInt8(ascii: "}"),
             UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""): true
        default: false
        }
    }
}
