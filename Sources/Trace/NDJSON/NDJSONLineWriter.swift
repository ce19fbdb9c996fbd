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

    /// Appends `s` as a JSON string literal.
    ///
    /// Two tight passes over the UTF-8 bytes: the first counts the escaped length,
    /// the second copies (one `memcpy` when nothing needs escaping) or writes the
    /// escaped bytes straight into the grown array. O(s.utf8.count).
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var escapedLength = bytes.count
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                escapedLength += shortEscape(b) == nil ? 5 : 1
            }
            if escapedLength == bytes.count {
                out.append(contentsOf: bytes)
                return
            }
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: escapedLength))
            out.withUnsafeMutableBufferPointer { buffer in
                var o = start
                for b in bytes {
                    if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                        buffer[o] = b
                        o += 1
                    } else if let short = shortEscape(b) {
                        buffer[o] = UInt8(ascii: "\\")
                        buffer[o + 1] = short
                        o += 2
                    } else {
                        buffer[o] = UInt8(ascii: "\\")
                        buffer[o + 1] = UInt8(ascii: "u")
                        buffer[o + 2] = UInt8(ascii: "0")
                        buffer[o + 3] = UInt8(ascii: "0")
                        buffer[o + 4] = hexDigit(b >> 4)
                        buffer[o + 5] = hexDigit(b & 0x0F)
                        o += 6
                    }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The letter after `\\` for characters with a short escape, nil for other control characters.
    @inline(__always)
    private static func shortEscape(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        default: nil
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
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
