/// lib0's encoder: variable-length integers, strings and `Any` values appended to bytes.
///
/// Writes into a buffer it owns rather than an `Array`: an encode appends about 17 bytes per
/// struct, and each `Array.append` checks uniqueness and capacity (a measurable share of
/// `encodeStateAsUpdate`). Each write reserves what it may need once, then stores unchecked.
/// Not copyable, so the buffer has exactly one owner and is freed with it.
struct ByteWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    /// False while writing into a caller's buffer (``init(borrowing:)``), which is not freed here.
    private var owned = true

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    /// Writes into `buffer` (an array's uninitialized storage, say) while it has room, then
    /// into storage of its own (``isInBorrowedBuffer`` tells which).
    init?(borrowing buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count >= 16 else { return nil }
        start = base
        capacity = buffer.count
        owned = false
    }

    deinit { if owned { start.deallocate() } }

    /// Whether every byte written is still in the buffer given to ``init(borrowing:)``.
    var isInBorrowedBuffer: Bool { !owned }

    /// The bytes written, copied out.
    var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: start, count: count)) }

    /// Makes room for `extra` more bytes (for a run of unchecked stores).
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if extra > capacity - count { grow(toHold: count + extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: count)
        if owned { start.deallocate() }
        owned = true
        start = newStart
        capacity = newCapacity
    }

    /// Stores a byte the caller has reserved room for.
    @inline(__always)
    private mutating func store(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    /// A varUint into room the caller reserved (10 bytes).
    @inline(__always)
    private mutating func storeVarUint(_ value: Int) {
        // Most numbers in an update (lengths, small clocks, client counts) take one byte.
        if value >= 0 && value < 0x80 {
            store(UInt8(truncatingIfNeeded: value))
            return
        }
        var number = UInt64(truncatingIfNeeded: value)
        while number > 0x7F {
            store(UInt8(truncatingIfNeeded: number & 0x7F) | 0x80)
            number >>= 7
        }
        store(UInt8(truncatingIfNeeded: number))
    }

    /// An item with ASCII string content and a neighbour (`writeItem`'s common case), stored
    /// into room the caller reserved: 51 bytes plus the text's length.
    @inline(__always)
    mutating func storeASCIITextStruct(info: UInt8, origin: ID?, rightOrigin: ID?, ascii: UnsafeBufferPointer<UInt8>) {
        store(info)
        if let origin { storeVarUint(origin.client); storeVarUint(origin.clock) }
        if let rightOrigin { storeVarUint(rightOrigin.client); storeVarUint(rightOrigin.clock) }
        storeVarUint(ascii.count)
        if let base = ascii.baseAddress, !ascii.isEmpty {
            (start + count).initialize(from: base, count: ascii.count)
            count += ascii.count
        }
    }

    /// A deleted item with a neighbour, stored into room the caller reserved (51 bytes).
    @inline(__always)
    mutating func storeDeletedStruct(info: UInt8, origin: ID?, rightOrigin: ID?, length: Int) {
        store(info)
        if let origin { storeVarUint(origin.client); storeVarUint(origin.clock) }
        if let rightOrigin { storeVarUint(rightOrigin.client); storeVarUint(rightOrigin.clock) }
        storeVarUint(length)
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        reserve(1)
        store(byte)
    }

    @inline(__always)
    mutating func writeVarUint(_ value: Int) {
        reserve(10)
        storeVarUint(value)
    }

    /// lib0 `writeVarInt`: sign in bit 6 of the first byte; `negativeZero` for JavaScript's -0.
    mutating func writeVarInt(_ value: Int64, negativeZero: Bool = false) {
        reserve(10)
        let negative = value < 0 || negativeZero
        var number = value.magnitude
        store((number > 0x3F ? 0x80 : 0) | (negative ? 0x40 : 0) | UInt8(truncatingIfNeeded: number & 0x3F))
        number >>= 6
        while number > 0 {
            store((number > 0x7F ? 0x80 : 0) | UInt8(truncatingIfNeeded: number & 0x7F))
            number >>= 7
        }
    }

    mutating func writeBytes(_ data: UnsafeBufferPointer<UInt8>) {
        guard let base = data.baseAddress, !data.isEmpty else { return }
        reserve(data.count)
        (start + count).initialize(from: base, count: data.count)
        count += data.count
    }

    mutating func writeBytes(_ data: [UInt8]) {
        data.withUnsafeBufferPointer { writeBytes($0) }
    }

    mutating func writeVarBytes(_ data: [UInt8]) {
        writeVarUint(data.count)
        writeBytes(data)
    }

    mutating func writeVarBytes(_ data: UnsafeBufferPointer<UInt8>) {
        writeVarUint(data.count)
        writeBytes(data)
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarUint(utf8.count)
            writeBytes(utf8)
        }
    }

    /// Writes UTF-16 code units as UTF-8, a lone surrogate as U+FFFD (what `TextEncoder` does).
    mutating func writeUTF16String(_ units: ArraySlice<UInt16>) {
        units.withUnsafeBufferPointer { writeUTF16String($0) }
    }

    /// `writeUTF16String` of a whole array: no slice is made.
    mutating func writeUTF16String(_ units: [UInt16]) {
        units.withUnsafeBufferPointer { writeUTF16String($0) }
    }

    mutating func writeUTF16String(_ buffer: UnsafeBufferPointer<UInt16>) {
        var combined: UInt16 = 0
        for unit in buffer { combined |= unit }
        if combined < 0x80 {
            // One byte per unit: the length is known, so write straight into the output.
            writeVarUint(buffer.count)
            reserve(buffer.count)
            for unit in buffer { store(UInt8(truncatingIfNeeded: unit)) }
        } else {
            var utf8: [UInt8] = []
            UTF16Transcoding.appendUTF8(buffer, to: &utf8)
            writeVarUint(utf8.count)
            writeBytes(utf8)
        }
    }

    mutating func writeFloat32(_ value: Float) {
        reserve(4)
        let bits = value.bitPattern
        for shift in stride(from: 24, through: 0, by: -8) { store(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
    }

    mutating func writeFloat64(_ value: Double) {
        reserve(8)
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { store(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
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
            reserve(8)
            let bits = UInt64(bitPattern: number)
            for shift in stride(from: 56, through: 0, by: -8) { store(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
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

    /// `writeAny` of each number, room reserved once for all (a pushed array of 6,000 numbers
    /// reserved and checked per value). Int32.min, the one value outside ±(2³¹−1), goes the
    /// general way (lib0 writes it as a float).
    mutating func writeAnyInts(_ numbers: UnsafeBufferPointer<Int32>) {
        // A tag and at most 5 bytes of varInt per number.
        reserve(6 * numbers.count)
        for number in numbers {
            guard number != .min else {
                writeAny(.int(Int64(number)))
                reserve(6 * numbers.count)
                continue
            }
            store(125)
            var magnitude = UInt32(number.magnitude)
            store((magnitude > 0x3F ? 0x80 : 0) | (number < 0 ? 0x40 : 0) | UInt8(truncatingIfNeeded: magnitude & 0x3F))
            magnitude >>= 6
            while magnitude > 0 {
                store((magnitude > 0x7F ? 0x80 : 0) | UInt8(truncatingIfNeeded: magnitude & 0x7F))
                magnitude >>= 7
            }
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
