/// The values of an `Any` content (``ItemContent/any(_:)``), stored compactly.
///
/// Arrays of small integers are the common case (`push([1])`, counters, ids), and a
/// ``YValue`` is 24 bytes wide: values that are all `int`s within 32 bits are kept packed,
/// 4 bytes each (a document of 6,000 pushed numbers: 141 KB → 30 KB). Anything else is kept as
/// the values themselves. Reading a packed value gives back the same `YValue.int`, so what is
/// stored, shown and encoded does not change.
struct AnyValues: RandomAccessCollection {
    private enum Storage {
        case ints([Int32])
        case values([YValue])
    }

    private var storage: Storage

    init(_ values: [YValue]) {
        var ints: [Int32] = []
        ints.reserveCapacity(values.count)
        for value in values {
            guard case .int(let number) = value, let packed = Int32(exactly: number) else {
                storage = .values(values)
                return
            }
            ints.append(packed)
        }
        storage = .ints(ints)
    }

    private init(storage: Storage) { self.storage = storage }

    /// Packed integers read from an update; the caller switches to ``YValue``s at the first
    /// value that is not one.
    init(packed ints: [Int32]) { storage = .ints(ints) }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .ints(let ints): ints.count
        case .values(let values): values.count
        }
    }

    subscript(position: Int) -> YValue {
        switch storage {
        case .ints(let ints): .int(Int64(ints[position]))
        case .values(let values): values[position]
        }
    }

    /// The values as ``YValue``s.
    var values: [YValue] {
        switch storage {
        case .ints(let ints): ints.map { .int(Int64($0)) }
        case .values(let values): values
        }
    }

    /// Keeps the values before `offset`, returns the rest.
    mutating func split(at offset: Int) -> AnyValues {
        switch storage {
        case .ints(let ints):
            storage = .ints(Array(ints[..<offset]))
            return AnyValues(storage: .ints(Array(ints[offset...])))
        case .values(let values):
            storage = .values(Array(values[..<offset]))
            return AnyValues(storage: .values(Array(values[offset...])))
        }
    }

    mutating func append(contentsOf other: AnyValues) {
        if case .ints(let more) = other.storage, case .ints(var ints) = storage {
            storage = .values([]) // drop our reference so the append happens in place
            ints.append(contentsOf: more)
            storage = .ints(ints)
            return
        }
        var values = self.values
        storage = .values([])
        values.append(contentsOf: other.values)
        storage = .values(values)
    }

    /// lib0 `writeAny` of each value from `offset`.
    func write(to writer: inout ByteWriter, from offset: Int) {
        switch storage {
        case .ints(let ints):
            ints.withUnsafeBufferPointer { writer.writeAnyInts(UnsafeBufferPointer(rebasing: $0[offset...])) }
        case .values(let values):
            for value in values[offset...] { writer.writeAny(value) }
        }
    }
}
