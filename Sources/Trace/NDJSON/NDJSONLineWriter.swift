/// Appends ``TraceRecord``s as NDJSON lines to a byte buffer, without `JSONEncoder`.
///
/// The output is one JSON object per line with keys in sorted (stable) order:
/// `channel, direction, engine, message, note, seq, size, step, store, time, type`;
/// `nil` optionals are omitted, `/` is not escaped, and every line ends with `\n`.
/// This is byte-for-byte what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
/// produces for strings without control characters (control characters are written
/// as the short escapes `\b \f \n \r \t` or `\u00XX`).
///
/// Complexity: O(bytes written) per record; no allocation beyond the buffer's growth.
enum NDJSONLineWriter {
    /// Appends `record` as one line (with its trailing newline) to `out`.
    static func append(_ record: TraceRecord, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        appendKey("channel", first: true, to: &out)
        appendString(record.channel, to: &out)
        appendKey("direction", to: &out)
        appendString(record.direction.rawValue, to: &out)
        appendKey("engine", to: &out)
        appendString(record.engine, to: &out)
        appendKey("message", to: &out)
        appendString(record.message, to: &out)
        if let note = record.note {
            appendKey("note", to: &out)
            appendString(note, to: &out)
        }
        if let seq = record.seq {
            appendKey("seq", to: &out)
            appendInteger(seq, to: &out)
        }
        appendKey("size", to: &out)
        appendInteger(record.size, to: &out)
        appendKey("step", to: &out)
        appendInteger(record.step, to: &out)
        if let store = record.store {
            appendKey("store", to: &out)
            appendString(store, to: &out)
        }
        appendKey("time", to: &out)
        appendUnsigned(record.time, to: &out)
        appendKey("type", to: &out)
        appendString(record.type, to: &out)
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    /// The line for `record` as a `String`, without the trailing newline.
    static func line(for record: TraceRecord) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(record.message.utf8.count + 160)
        append(record, to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    private static func appendKey(_ key: StaticString, first: Bool = false, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal. O(s.utf8.count).
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hexDigits[Int(b >> 4)])
                    out.append(hexDigits[Int(b & 0x0F)])
                }
                i += 1
                runStart = i
            }
            if runStart < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendUnsigned(value.magnitude.toUInt64, to: &out)
        } else {
            appendUnsigned(UInt64(value), to: &out)
        }
    }

    static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
        // 20 digits hold UInt64.max.
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat {
                buf[19 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            } while v > 0
            out.append(contentsOf: buf[(20 - count)...])
        }
    }
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}
