/// An ordered list of uniquely keyed values that remembers insertion order.
///
/// Themes keep colours, fonts and components in the order the JSON file lists them,
/// so that generated CSS and reports read like the file. `JSONDecoder` does not promise
/// key order, which is why this type exists instead of `[String: Value]`.
///
/// Invariants: keys are unique; `entries` is in insertion order.
/// Complexity: lookup by key is O(1) on average; appending is O(1) amortised.
public struct KeyedList<Value> {
    /// One key with its value.
    public struct Entry {
        /// The key as written in the JSON file.
        public let key: String
        /// The value under `key`.
        public let value: Value
    }

    /// Entries in insertion order.
    public private(set) var entries: [Entry] = []
    private var indexByKey: [String: Int] = [:]

    /// An empty list.
    public init() {}

    /// Builds a list from key–value pairs in order; a repeated key keeps its first position
    /// and takes the later value.
    public init(_ pairs: [(String, Value)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// Keys in insertion order.
    public var keys: [String] { entries.map(\.key) }

    /// Number of entries.
    public var count: Int { entries.count }

    /// Whether the list has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, or nil. Setting an existing key replaces its value in place;
    /// setting a new key appends it; setting nil removes the key. O(1), except removal: O(n).
    public subscript(key: String) -> Value? {
        get { indexByKey[key].map { entries[$0].value } }
        set {
            if let newValue {
                if let index = indexByKey[key] {
                    entries[index] = Entry(key: key, value: newValue)
                } else {
                    indexByKey[key] = entries.count
                    entries.append(Entry(key: key, value: newValue))
                }
            } else if let index = indexByKey[key] {
                entries.remove(at: index)
                indexByKey = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.key, $0) })
            }
        }
    }

    /// Whether `key` is present. O(1).
    public func contains(_ key: String) -> Bool { indexByKey[key] != nil }

    /// A list with the same keys, in the same order, and transformed values.
    public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> KeyedList<T> {
        var result = KeyedList<T>()
        for entry in entries { result[entry.key] = try transform(entry.value) }
        return result
    }
}

extension KeyedList.Entry: Sendable where Value: Sendable {}
extension KeyedList.Entry: Equatable where Value: Equatable {}
extension KeyedList.Entry: Hashable where Value: Hashable {}
extension KeyedList: Sendable where Value: Sendable {}

extension KeyedList: Equatable where Value: Equatable {
    /// Equal when both hold the same keys in the same order with equal values.
    public static func == (lhs: KeyedList, rhs: KeyedList) -> Bool { lhs.entries == rhs.entries }
}

extension KeyedList: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}

extension KeyedList: Decodable where Value: Decodable {
    /// Decodes a JSON object in the order the decoder lists its keys: file order with
    /// `ThemeJSONDecoder`, unspecified order with Foundation's `JSONDecoder`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init()
        for key in container.allKeys {
            self[key.stringValue] = try container.decode(Value.self, forKey: key)
        }
    }
}

extension KeyedList: Encodable where Value: Encodable {
    /// Encodes a JSON object, keys in list order (encoders that sort keys may reorder them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for entry in entries {
            try container.encode(entry.value, forKey: AnyCodingKey(entry.key))
        }
    }
}
