/// An object value with JavaScript's key order: integer-like keys ascending, then the others
/// in insertion order.
public struct YObject: Equatable, Sendable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [String: YValue] = [:]

    public init() {}

    public var count: Int { keys.count }

    public subscript(key: String) -> YValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { insertKey(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    private mutating func insertKey(_ key: String) {
        guard let index = arrayIndex(key) else { keys.append(key); return }
        // Integer-like keys sit before all others, ascending.
        var position = 0
        while position < keys.count, let other = arrayIndex(keys[position]), other < index { position += 1 }
        keys.insert(key, at: position)
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: YValue)> {
        var index = 0
        let keys = self.keys
        let values = self.values
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, values[key] ?? .undefined)
        }
    }

    public static func == (lhs: YObject, rhs: YObject) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
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
