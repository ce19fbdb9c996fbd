/// UTF-16 code units to UTF-8, each lone surrogate as U+FFFD (what `TextEncoder` and
/// `String(decoding:as: UTF16.self)` do), with an ASCII fast path: the standard library's
/// UTF-16 decoding takes hundreds of instructions per unit, which made reading a text cost
/// more than applying the update that built it.
enum UTF16Transcoding {
    /// Appends the UTF-8 form of `units` to `bytes`.
    static func appendUTF8(_ units: UnsafeBufferPointer<UInt16>, to bytes: inout [UInt8]) {
        var combined: UInt16 = 0
        for unit in units { combined |= unit }
        if combined < 0x80 {
            // Most string items hold a few units: appending one by one beats reserving.
            for unit in units { bytes.append(UInt8(truncatingIfNeeded: unit)) }
            return
        }
        bytes.reserveCapacity(bytes.count + units.count * 3)
        var index = 0
        let count = units.count
        while index < count {
            let unit = units[index]
            var scalar: UInt32
            if unit >= 0xD800 && unit <= 0xDBFF, index + 1 < count, units[index + 1] >= 0xDC00, units[index + 1] <= 0xDFFF {
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(units[index + 1]) - 0xDC00)
                index += 2
            } else {
                scalar = (unit >= 0xD800 && unit <= 0xDFFF) ? 0xFFFD : UInt32(unit)
                index += 1
            }
            switch scalar {
            case 0..<0x80: bytes.append(UInt8(scalar))
            case 0x80..<0x800:
                bytes.append(0xC0 | UInt8(scalar >> 6)); bytes.append(0x80 | UInt8(scalar & 0x3F))
            case 0x800..<0x10000:
                bytes.append(0xE0 | UInt8(scalar >> 12)); bytes.append(0x80 | UInt8((scalar >> 6) & 0x3F)); bytes.append(0x80 | UInt8(scalar & 0x3F))
            default:
                bytes.append(0xF0 | UInt8(scalar >> 18)); bytes.append(0x80 | UInt8((scalar >> 12) & 0x3F))
                bytes.append(0x80 | UInt8((scalar >> 6) & 0x3F)); bytes.append(0x80 | UInt8(scalar & 0x3F))
            }
        }
    }

    /// The string `units` spell (`String(decoding: units, as: UTF16.self)`, faster).
    static func string(_ units: some Collection<UInt16>) -> String {
        var bytes: [UInt8] = []
        units.withContiguousStorageIfAvailable { appendUTF8($0, to: &bytes) } ?? Array(units).withUnsafeBufferPointer { appendUTF8($0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
