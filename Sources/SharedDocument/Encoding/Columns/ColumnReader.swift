/// The bytes of one column of a v2 update, read with ``ByteReader``, errors placed at the
/// column's offset in the whole update.
struct ColumnReader {
    private(set) var reader: ByteReader
    /// Where the column starts in the update.
    let base: Int

    init(_ bytes: ArraySlice<UInt8>, base: Int) {
        reader = ByteReader(Array(bytes))
        self.base = base
    }

    var isAtEnd: Bool { reader.isAtEnd }
    var remaining: Int { reader.remaining }

    func error(_ kind: UpdateDecodingError.Kind) -> UpdateDecodingError { UpdateDecodingError(kind, at: base + reader.position) }

    private func placed(_ error: UpdateDecodingError) -> UpdateDecodingError { UpdateDecodingError(error.kind, at: base + error.offset) }

    mutating func readByte() throws(UpdateDecodingError) -> UInt8 {
        do { return try reader.readByte() } catch { throw placed(error) }
    }

    mutating func readVarUint() throws(UpdateDecodingError) -> Int {
        do { return try reader.readVarUint() } catch { throw placed(error) }
    }

    mutating func readVarInt() throws(UpdateDecodingError) -> (value: Int64, negativeZero: Bool) {
        do { return try reader.readVarInt() } catch { throw placed(error) }
    }

    /// A varstring as UTF-16 code units (strict UTF-8, as v1's strings).
    mutating func readUTF16String() throws(UpdateDecodingError) -> [UInt16] {
        let start = reader.position
        let count = try readVarUint()
        let slice: ArraySlice<UInt8>
        do { slice = try reader.readBytes(count) } catch { throw placed(error) }
        var ascii = true
        for byte in slice where byte >= 0x80 { ascii = false; break }
        if ascii { return slice.map { UInt16($0) } }
        guard let string = String(validating: slice, as: UTF8.self) else { throw UpdateDecodingError(.invalidUTF8, at: base + start) }
        return Array(string.utf16)
    }
}
