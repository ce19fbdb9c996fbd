/// The characters of a string content (``ItemContent/string(_:)``), counted in UTF-16 code
/// units as Yjs counts them, stored in the smallest of three forms.
///
/// - Up to ``ShortASCII/capacity`` ASCII characters sit inline, inside the item: most string
///   items of an edited text are a few characters long, and a `[UInt16]` of their own was a
///   second allocation per item, scattered by the edits, that an encode right after editing
///   missed in cache for every struct.
/// - Longer ASCII text is one byte per character (`[UInt8]`): half the memory of UTF-16, and its
///   bytes are already the UTF-8 an update carries (a document of 6,000 appended characters
///   loaded from its update held 12 KB of UTF-16).
/// - Anything else stays UTF-16 (`[UInt16]`), lone surrogates and all.
///
/// The form never shows: the same units come back, are split and merged, and are encoded to
/// the same bytes whichever form holds them. The type is 16 bytes wide, so ``ItemContent``
/// stays 16 bytes and an ``Item`` stays in its 144-byte malloc chunk.
struct TextUnits {
    private enum Storage {
        case short(ShortASCII)
        case ascii([UInt8])
        case utf16([UInt16])
    }

    private var storage: Storage

    private init(storage: Storage) { self.storage = storage }

    /// Text from UTF-16 code units, in the smallest form that holds them.
    init(_ units: some Collection<UInt16>) {
        var combined: UInt16 = 0
        for unit in units { combined |= unit }
        if combined < 0x80 {
            if units.count <= ShortASCII.capacity {
                var short = ShortASCII()
                for unit in units { short.append(UInt8(truncatingIfNeeded: unit)) }
                storage = .short(short)
            } else {
                storage = .ascii(units.map { UInt8(truncatingIfNeeded: $0) })
            }
        } else {
            storage = .utf16(Array(units))
        }
    }

    /// The UTF-16 code units of `string`: straight from its UTF-8 when that is ASCII.
    init(_ string: String) {
        var string = string
        let ascii: TextUnits? = string.withUTF8 { bytes in
            var combined: UInt8 = 0
            for byte in bytes { combined |= byte }
            return combined < 0x80 ? TextUnits(ascii: bytes) : nil
        }
        self = ascii ?? TextUnits(storage: .utf16(Array(string.utf16)))
    }

    /// Text from bytes the caller checked are all ASCII.
    init(ascii bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count <= ShortASCII.capacity {
            storage = .short(ShortASCII(bytes))
        } else {
            storage = .ascii(Array(bytes))
        }
    }

    /// Length in UTF-16 code units.
    var count: Int {
        switch storage {
        case .short(let short): Int(short.count)
        case .ascii(let bytes): bytes.count
        case .utf16(let units): units.count
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Calls `body` with the characters as ASCII bytes, or answers nil (without calling it)
    /// when the text is held as UTF-16.
    @inline(__always)
    func withASCII<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        switch storage {
        case .short(let short): short.withBytes(body)
        case .ascii(let bytes): bytes.withUnsafeBufferPointer(body)
        case .utf16: nil
        }
    }

    /// Writes the units from `offset` as a lib0 var string (UTF-8, a lone surrogate as U+FFFD).
    func write(from offset: Int, to writer: inout ByteWriter) {
        switch storage {
        case .short(let short):
            short.withBytes { writer.writeVarBytes(UnsafeBufferPointer(rebasing: $0[offset...])) }
        case .ascii(let bytes):
            bytes.withUnsafeBufferPointer { writer.writeVarBytes(UnsafeBufferPointer(rebasing: $0[offset...])) }
        case .utf16(let units):
            writer.writeUTF16String(units[offset...])
        }
    }

    /// Appends the characters, as UTF-8, to `bytes` (reading a text back).
    func appendUTF8(to bytes: inout [UInt8]) {
        switch storage {
        case .short(let short): short.withBytes { bytes.append(contentsOf: $0) }
        case .ascii(let ascii): bytes.append(contentsOf: ascii)
        case .utf16(let units): units.withUnsafeBufferPointer { UTF16Transcoding.appendUTF8($0, to: &bytes) }
        }
    }

    /// The one-unit string at `offset` (a lone surrogate as U+FFFD, as before).
    func string(at offset: Int) -> String {
        switch storage {
        case .short(let short): String(decoding: CollectionOfOne(short[offset]), as: UTF8.self)
        case .ascii(let bytes): String(decoding: CollectionOfOne(bytes[offset]), as: UTF8.self)
        case .utf16(let units): UTF16Transcoding.string(units[offset...offset])
        }
    }

    /// The units as UTF-16 (tests, and the rare mixed merge).
    var utf16: [UInt16] {
        switch storage {
        case .short(let short): short.withBytes { $0.map { UInt16($0) } }
        case .ascii(let bytes): bytes.map { UInt16($0) }
        case .utf16(let units): units
        }
    }

    /// Keeps the units before `offset` and returns the rest (Yjs's `ContentString.splice`: a
    /// surrogate pair cut in two becomes U+FFFD on both sides).
    mutating func split(at offset: Int) -> TextUnits {
        switch storage {
        case .short(var short):
            let right = short.split(at: offset)
            storage = .short(short)
            return TextUnits(storage: .short(right))
        case .ascii(let bytes):
            let right = bytes.withUnsafeBufferPointer { TextUnits(ascii: UnsafeBufferPointer(rebasing: $0[offset...])) }
            storage = bytes.withUnsafeBufferPointer { TextUnits(ascii: UnsafeBufferPointer(rebasing: $0[..<offset])) }.storage
            return right
        case .utf16(var units):
            storage = .short(ShortASCII()) // drop our reference so the cut happens in place
            var right = Array(units[offset...])
            units.removeSubrange(offset...)
            if let last = units.last, last >= 0xD800, last <= 0xDBFF {
                units[units.count - 1] = 0xFFFD
                right[0] = 0xFFFD
            }
            storage = .utf16(units)
            return TextUnits(storage: .utf16(right))
        }
    }

    /// Appends `other` (Yjs's `ContentString.mergeWith`).
    mutating func append(_ other: TextUnits) {
        switch (storage, other.storage) {
        case (.short(var short), .short(let more)) where Int(short.count) + Int(more.count) <= ShortASCII.capacity:
            more.withBytes { for byte in $0 { short.append(byte) } }
            storage = .short(short)
        case (.short(let short), _):
            if let merged = other.withASCII({ more in short.withBytes { Array($0) + Array(more) } }) {
                storage = .ascii(merged)
            } else {
                storage = .utf16(utf16 + other.utf16)
            }
        case (.ascii(var bytes), _):
            storage = .short(ShortASCII()) // drop our reference so the append happens in place
            if other.withASCII({ bytes.append(contentsOf: $0) }) != nil {
                storage = .ascii(bytes)
            } else {
                storage = .utf16(bytes.map { UInt16($0) } + other.utf16)
            }
        case (.utf16(var units), _):
            storage = .short(ShortASCII())
            units.append(contentsOf: other.utf16)
            storage = .utf16(units)
        }
    }
}
