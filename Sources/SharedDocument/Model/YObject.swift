import OrderedCollections

/// An object value with JavaScript's key order: integer-like keys ascending, then the others
/// in insertion order.
///
/// Integer-like keys and the others are kept apart, so setting, reading and removing a key cost
/// O(1) whatever the order keys arrive in (a document's map may hold a million client-id keys,
/// sent in any order); ``keys`` and iteration sort the integer-like keys, O(k log k) per call.
public struct YObject: Equatable, Sendable, Sequence {
    /// Integer-like keys ("0", "17"), by their value: their text is `String(index)`, since
    /// ``arrayIndex(_:)`` accepts no other spelling.
    private var indexed: [UInt32: YValue] = [:]
    /// The other keys, in insertion order.
    private var named: OrderedDictionary<String, YValue> = [:]

    public init() {}

    public var count: Int { indexed.count + named.count }

    /// The keys in JavaScript's order. Sorts the integer-like keys on every call: read it once
    /// per walk.
    public var keys: [String] {
        indexed.keys.sorted().map { String($0) } + named.keys
    }

    public subscript(key: String) -> YValue? {
        get {
            if let index = arrayIndex(key) { return indexed[index] }
            return named[key]
        }
        set {
            if let index = arrayIndex(key) {
                indexed[index] = newValue
            } else {
                named[key] = newValue
            }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: YValue)> {
        let integerEntries = indexed.sorted { $0.key < $1.key }.lazy.map { (key: String($0.key), value: $0.value) }
        let namedEntries = named.lazy.map { (key: $0.key, value: $0.value) }
        return integerEntries.makeIterator().chained(with: namedEntries.makeIterator())
    }
}

private extension IteratorProtocol {
    /// This iterator's elements, then `next`'s.
    func chained<Next: IteratorProtocol>(with next: Next) -> AnyIterator<Element> where Next.Element == Element {
        var first: Self? = self
        var second = next
        return AnyIterator {
            if first != nil, let element = first?.next() { return element }
            first = nil
            return second.next()
        }
    }
}

/// The integer value of a JavaScript array-index key ("0", "17"; not "01", not ≥ 2³²−1).
func arrayIndex(_ key: String) -> UInt32? {
    let utf8 = key.utf8
    guard let first = utf8.first, utf8.count <= 10 else { return nil }
    if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
    var value: UInt64 = 0
    for byte in utf8 {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
    }
    return value < 4_294_967_295 ? UInt32(value) : nil
}
