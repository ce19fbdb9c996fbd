/// lib0's `IntDiffOptRleEncoder` / `IntDiffOptRleDecoder`: runs of equal differences between
/// consecutive values (the first from 0). `varint (diff × 2 + (run > 1 ? 1 : 0))`, then
/// `varuint (run − 2)` for a longer run. v2 updates keep clocks and key numbers so.
enum IntDiffOptRleColumn {
    struct Encoder: ~Copyable {
        private var writer = ByteWriter()
        private var value = 0
        private var diff = 0
        private var count = 0

        mutating func write(_ next: Int) {
            if diff == next - value {
                value = next
                count += 1
                return
            }
            flush()
            count = 1
            diff = next - value
            value = next
        }

        private mutating func flush() {
            guard count > 0 else { return }
            writer.writeVarInt(Int64(diff) * 2 + (count == 1 ? 0 : 1))
            if count > 1 { writer.writeVarUint(count - 2) }
        }

        consuming func finish() -> [UInt8] {
            flush()
            return writer.bytes
        }
    }

    struct Decoder {
        private var column: ColumnReader
        private var value = 0
        private var diff = 0
        private var count = 0
        /// What the column holds, for errors ("left clock").
        let name: String

        init(_ column: ColumnReader, name: String) {
            self.column = column
            self.name = name
        }

        /// The next value: a clock or key number, so within 0 ..< 2⁵³.
        mutating func read() throws(UpdateDecodingError) -> Int {
            if count == 0 {
                let (encoded, _) = try column.readVarInt()
                diff = Int(encoded >> 1)
                count = try encoded & 1 != 0 ? column.readVarUint() + 2 : 1
            }
            let (next, overflow) = value.addingReportingOverflow(diff)
            guard !overflow, next >= 0, next < 1 << 53 else { throw column.error(.invalidStructure("\(name) column runs out of 0 ..< 2^53")) }
            value = next
            count -= 1
            return value
        }
    }
}
