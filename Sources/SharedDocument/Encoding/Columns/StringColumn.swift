/// lib0's `StringEncoder` / `StringDecoder`: every string appended to one, stored as one
/// varstring, then the ``UintOptRleColumn`` of their lengths in UTF-16 code units.
///
/// The strings are joined before the UTF-8 is made, as JavaScript joins them: a high
/// surrogate ending one string and a low one starting the next make one 4-byte character,
/// and the reader cuts the UTF-16 apart again where the lengths say.
enum StringColumn {
    struct Encoder: ~Copyable {
        private var units: [UInt16] = []
        private var lengths = UintOptRleColumn.Encoder()

        mutating func write(_ string: String) {
            let start = units.count
            units.append(contentsOf: string.utf16)
            lengths.write(units.count - start)
        }

        /// The text's units from `offset` (Yjs's `str.slice(offset)`: a cut surrogate pair
        /// leaves its low half).
        mutating func write(_ text: TextUnits, from offset: Int = 0) {
            if offset == 0 {
                units.append(contentsOf: text.utf16)
            } else {
                units.append(contentsOf: text.utf16[offset...])
            }
            lengths.write(text.count - offset)
        }

        consuming func finish() -> [UInt8] {
            var writer = ByteWriter(capacity: units.count + 16)
            writer.writeUTF16String(units)
            writer.writeBytes(lengths.finish())
            return writer.bytes
        }
    }

    struct Decoder {
        private let units: [UInt16]
        private var position = 0
        private var lengths: UintOptRleColumn.Decoder

        init(_ column: ColumnReader) throws(UpdateDecodingError) {
            var column = column
            units = try column.readUTF16String()
            lengths = UintOptRleColumn.Decoder(column)
        }

        /// The next string's UTF-16 code units.
        mutating func readUnits() throws(UpdateDecodingError) -> ArraySlice<UInt16> {
            let count = try lengths.read()
            guard count <= units.count - position else { throw lengths.column.error(.invalidLength) }
            defer { position += count }
            return units[position..<(position + count)]
        }

        mutating func readString() throws(UpdateDecodingError) -> String {
            UTF16Transcoding.string(try readUnits())
        }
    }
}
