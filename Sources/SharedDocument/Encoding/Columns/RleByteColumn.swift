/// lib0's `RleEncoder(writeUint8)` / `RleDecoder(readUint8)`: a byte, then `varuint (run − 1)`
/// when a different byte follows. The last run has no count: read on, it repeats forever.
/// v2 updates keep their info bytes and parent kinds in such columns.
enum RleByteColumn {
    struct Encoder: ~Copyable {
        private var writer = ByteWriter()
        private var last: UInt8?
        private var count = 0

        mutating func write(_ value: UInt8) {
            if last == value {
                count += 1
                return
            }
            if count > 0 { writer.writeVarUint(count - 1) }
            count = 1
            writer.write(value)
            last = value
        }

        /// The column's bytes (the last run's count is never written).
        consuming func finish() -> [UInt8] { writer.bytes }
    }

    struct Decoder {
        private var column: ColumnReader
        private var value: UInt8 = 0
        /// Values left in the current run; nil: the last run, which never ends.
        private var count: Int? = 0

        init(_ column: ColumnReader) { self.column = column }

        mutating func read() throws(UpdateDecodingError) -> UInt8 {
            if count == 0 {
                value = try column.readByte()
                count = try column.isAtEnd ? nil : column.readVarUint() + 1
            }
            if let left = count { count = left - 1 }
            return value
        }
    }
}
