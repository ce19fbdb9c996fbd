/// lib0's encoder: variable-length integers, strings and `Any` values appended to bytes.
struct ByteWriter {
    var bytes: [UInt8] = []

    init() {}

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func writeVarUint(_ value: Int) {
        // Most numbers in an update (lengths, small clocks, client counts) take one byte.
        if value >= 0 && value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            return
        }
        if value >= 0 && value < 0x4000 {
            // Clocks of documents under 16K structs.
            bytes.append(UInt8(truncatingIfNeeded: value & 0x7F) | 0x80)
            bytes.append(UInt8(truncatingIfNeeded: value >> 7))
            return
        }
        writeLongVarUint(value)
    }

    private mutating func writeLongVarUint(_ value: Int) {
        var number = UInt64(truncatingIfNeeded: value)
        while number > 0x7F {
            bytes.append(UInt8(truncatingIfNeeded: number & 0x7F) | 0x80)
            number >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: number))
    }

    /// lib0 `writeVarInt`: sign in bit 6 of the first byte; `negativeZero` for JavaScript's -0.
    mutating func writeVarInt(_ value: Int64, negativeZero: Bool = false) {
        let negative = value < 0 || negativeZero
        var number = value.magnitude
        bytes.append((number > 0x3F ? 0x80 : 0) | (negative ? 0x40 : 0) | UInt8(truncatingIfNeeded: number & 0x3F))
        number >>= 6
        while number > 0 {
            bytes.append((number > 0x7F ? 0x80 : 0) | UInt8(truncatingIfNeeded: number & 0x7F))
            number >>= 7
        }
    }

    mutating func writeBytes(_ data: some Collection<UInt8>) { bytes.append(contentsOf: data) }

    mutating func writeVarBytes(_ data: [UInt8]) {
        writeVarUint(data.count)
        bytes.append(contentsOf: data)
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarUint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes UTF-16 code units as UTF-8, a lone surrogate as U+FFFD (what `TextEncoder` does).
    mutating func writeUTF16String(_ units: ArraySlice<UInt16>) {
        units.withUnsafeBufferPointer { buffer in
            var combined: UInt16 = 0
            for unit in buffer { combined |= unit }
            if combined < 0x80 {
                // One byte per unit: the length is known, so write straight into the output.
                writeVarUint(buffer.count)
                UTF16Transcoding.appendUTF8(buffer, to: &bytes)
            } else {
                var utf8: [UInt8] = []
                UTF16Transcoding.appendUTF8(buffer, to: &utf8)
                writeVarUint(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }
    }

    mutating func writeFloat32(_ value: Float) {
        let bits = value.bitPattern
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
    }

    mutating func writeFloat64(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    /// lib0 `writeAny`.
    mutating func writeAny(_ value: YValue) {
        switch value {
        case .undefined: write(127)
        case .null: write(126)
        case .bool(let flag): write(flag ? 120 : 121)
        case .int(let number):
            if number.magnitude <= 0x7FFF_FFFF {
                write(125); writeVarInt(number)
            } else {
                writeNumber(Double(number))
            }
        case .double(let number): writeNumber(number)
        case .bigint(let number):
            write(122)
            let bits = UInt64(bitPattern: number)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        case .string(let string): write(119); writeString(string)
        case .bytes(let data): write(116); writeVarBytes(data)
        case .array(let values):
            write(117); writeVarUint(values.count)
            for element in values { writeAny(element) }
        case .object(let object):
            write(118); writeVarUint(object.count)
            for (key, element) in object { writeString(key); writeAny(element) }
        }
    }

    /// A JavaScript number: integer (|n| ≤ 2³¹−1), else float32 when exact, else float64.
    private mutating func writeNumber(_ number: Double) {
        if number == number.rounded(), number.magnitude <= 0x7FFF_FFFF {
            write(125)
            writeVarInt(Int64(number), negativeZero: number == 0 && number.sign == .minus)
        } else if Double(Float(number)) == number {
            write(124); writeFloat32(Float(number))
        } else {
            write(123); writeFloat64(number)
        }
    }
}
