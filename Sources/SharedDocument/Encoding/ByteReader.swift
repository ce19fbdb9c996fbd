/// lib0's decoder over untrusted bytes: every read is bounds-checked and throws
/// ``UpdateDecodingError``; nothing is allocated from a count before the bytes for it exist.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position >= bytes.count }

    func error(_ kind: UpdateDecodingError.Kind) -> UpdateDecodingError { UpdateDecodingError(kind, at: position) }

    @inline(__always)
    mutating func readByte() throws(UpdateDecodingError) -> UInt8 {
        guard position < bytes.count else { throw error(.truncated) }
        defer { position += 1 }
        return bytes[position]
    }

    /// At most 53 significant bits (JavaScript's safe integers), as Yjs can represent.
    @inline(__always)
    mutating func readVarUint() throws(UpdateDecodingError) -> Int {
        // Most numbers in an update take one byte.
        if position < bytes.count, bytes[position] < 0x80 {
            defer { position += 1 }
            return Int(bytes[position])
        }
        return try readLongVarUint()
    }

    private mutating func readLongVarUint() throws(UpdateDecodingError) -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift < 56 { result |= UInt64(byte & 0x7F) << shift } else if byte & 0x7F != 0 { throw error(.overflow) }
            if result >= 1 << 53 { throw error(.overflow) }
            if byte < 0x80 { return Int(result) }
            shift += 7
            if shift > 70 { throw error(.overflow) }
        }
    }

    /// A count of things each taking at least `minimumSize` bytes: larger than the input can
    /// hold is an error before anything is allocated.
    mutating func readCount(minimumSize: Int = 1) throws(UpdateDecodingError) -> Int {
        let count = try readVarUint()
        guard count <= remaining / max(minimumSize, 1) else { throw error(.invalidLength) }
        return count
    }

    mutating func readVarInt() throws(UpdateDecodingError) -> (value: Int64, negativeZero: Bool) {
        let first = try readByte()
        var magnitude = UInt64(first & 0x3F)
        let negative = first & 0x40 != 0
        var shift: UInt64 = 6
        var byte = first
        while byte & 0x80 != 0 {
            byte = try readByte()
            let bits = UInt64(byte & 0x7F)
            if shift >= 53 || (bits << shift) >= (1 << 53) { if bits != 0 { throw error(.overflow) } } else { magnitude |= bits << shift }
            shift += 7
            if shift > 70 { throw error(.overflow) }
        }
        let value = Int64(magnitude)
        return (negative ? -value : value, negative && magnitude == 0)
    }

    mutating func readBytes(_ count: Int) throws(UpdateDecodingError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw error(.invalidLength) }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func readVarBytes() throws(UpdateDecodingError) -> [UInt8] {
        let count = try readVarUint()
        return Array(try readBytes(count))
    }

    mutating func readString() throws(UpdateDecodingError) -> String {
        let count = try readVarUint()
        let start = position
        let slice = try readBytes(count)
        guard let string = String(validating: slice, as: UTF8.self) else { throw UpdateDecodingError(.invalidUTF8, at: start) }
        return string
    }

    /// A string content's text (Yjs measures text in UTF-16): ASCII is kept as the bytes read.
    mutating func readText() throws(UpdateDecodingError) -> TextUnits {
        let count = try readVarUint()
        let start = position
        let slice = try readBytes(count)
        let ascii: TextUnits? = slice.withUnsafeBufferPointer { source in
            var combined: UInt8 = 0
            for byte in source { combined |= byte }
            return combined < 0x80 ? TextUnits(ascii: source) : nil
        }
        if let ascii { return ascii }
        guard let string = String(validating: slice, as: UTF8.self) else { throw UpdateDecodingError(.invalidUTF8, at: start) }
        return TextUnits(string.utf16)
    }

    mutating func readFloat32() throws(UpdateDecodingError) -> Float {
        var bits: UInt32 = 0
        for _ in 0..<4 { bits = bits << 8 | UInt32(try readByte()) }
        return Float(bitPattern: bits)
    }

    mutating func readUInt64() throws(UpdateDecodingError) -> UInt64 {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(try readByte()) }
        return bits
    }

    /// lib0 `readAny`, with nesting bounded.
    mutating func readAny(depth: Int = 0) throws(UpdateDecodingError) -> YValue {
        guard depth < UpdateDecodingError.maximumNesting else { throw error(.nestingTooDeep) }
        let tag = try readByte()
        switch tag {
        case 127: return .undefined
        case 126: return .null
        case 125:
            let (value, negativeZero) = try readVarInt()
            return negativeZero ? .double(-0.0) : .int(value)
        case 124: return .double(Double(try readFloat32()))
        case 123: return .double(Double(bitPattern: try readUInt64()))
        case 122: return .bigint(Int64(bitPattern: try readUInt64()))
        case 121: return .bool(false)
        case 120: return .bool(true)
        case 119: return .string(try readString())
        case 118:
            let count = try readCount(minimumSize: 2)
            var object = YObject()
            for _ in 0..<count {
                let key = try readString()
                object[key] = try readAny(depth: depth + 1)
            }
            return .object(object)
        case 117:
            let count = try readCount()
            var values: [YValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try readAny(depth: depth + 1)) }
            return .array(values)
        case 116: return .bytes(try readVarBytes())
        default:
            // lib0 answers undefined for unknown tags; an update from a real peer never has one.
            throw UpdateDecodingError(.invalidStructure("unknown Any tag \(tag)"), at: position - 1)
        }
    }
}
