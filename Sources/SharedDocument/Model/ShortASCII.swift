/// Up to 14 ASCII characters held inline (15 bytes, so ``TextUnits`` fits 16).
struct ShortASCII {
    static let capacity = 14

    private(set) var count: UInt8 = 0
    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init() {}

    /// `source` must hold at most ``capacity`` bytes.
    init(_ source: UnsafeBufferPointer<UInt8>) {
        count = UInt8(truncatingIfNeeded: source.count)
        withUnsafeMutableBytes(of: &bytes) { target in
            if let base = source.baseAddress, !source.isEmpty { target.baseAddress?.copyMemory(from: base, byteCount: source.count) }
        }
    }

    subscript(offset: Int) -> UInt8 {
        withBytes { $0[offset] }
    }

    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeBytes(of: bytes) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: Int(count)))
        }
    }

    /// The caller checks there is room.
    mutating func append(_ byte: UInt8) {
        let index = Int(count)
        withUnsafeMutableBytes(of: &bytes) { $0[index] = byte }
        count += 1
    }

    /// Keeps the bytes before `offset` and returns the rest.
    mutating func split(at offset: Int) -> ShortASCII {
        let right = withBytes { ShortASCII(UnsafeBufferPointer(rebasing: $0[offset...])) }
        count = UInt8(truncatingIfNeeded: offset)
        return right
    }
}
