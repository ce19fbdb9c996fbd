/// lib0's `UintOptRleEncoder` / `UintOptRleDecoder`: a run of one value is `varint v`; a
/// longer run is `varint −v` (−0 for zeros) then `varuint (run − 2)`. Reading past the last
/// run is `truncated`. v2 updates keep clients, type refs, lengths and string lengths so.
enum UintOptRleColumn {
    struct Encoder: ~Copyable {
        private var writer = ByteWriter()
        private var value = 0
        private var count = 0

        mutating func write(_ next: Int) {
            if value == next {
                count += 1
                return
            }
            flush()
            count = 1
            value = next
        }

        private mutating func flush() {
            guard count > 0 else { return }
            if count == 1 {
                writer.writeVarInt(Int64(value))
            } else {
                writer.writeVarInt(-Int64(value), negativeZero: value == 0)
                writer.writeVarUint(count - 2)
            }
        }

        /// The column's bytes, its last run written.
        consuming func finish() -> [UInt8] {
            flush()
            return writer.bytes
        }
    }

    struct Decoder {
        private(set) var column: ColumnReader
        private var value = 0
        private var count = 0

        init(_ column: ColumnReader) { self.column = column }

        mutating func read() throws(UpdateDecodingError) -> Int {
            if count == 0 {
                let (signed, negativeZero) = try column.readVarInt()
                if signed < 0 || negativeZero {
                    value = Int(-signed)
                    count = try column.readVarUint() + 2
                } else {
                    value = Int(signed)
                    count = 1
                }
            }
            count -= 1
            return value
        }
    }
}
