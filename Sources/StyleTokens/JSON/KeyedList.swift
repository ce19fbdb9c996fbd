import OrderedCollections
import StateHubJSON

/// An ordered list of uniquely keyed values that remembers insertion order.
///
/// Themes keep colours, fonts and components in the order the JSON file lists them,
/// so that generated CSS and reports read like the file. `JSONDecoder` does not promise
/// key order, which is why this type exists instead of `[String: Value]`.
///
/// Keys compare as JavaScript compares them (`JSONKey`: code units, so `"é"` and
/// `"e\u{301}"` are two keys), as they do in the parsed theme.
///
/// Invariants: keys are unique; `entries` is in insertion order (both kept by the
/// underlying `OrderedDictionary`).
/// Complexity: lookup by key is O(1) on average; appending is O(1) amortised; removal O(n).
public struct KeyedList<Value> {
    /// One key with its value.
    public struct Entry {
        /// The key as written in the JSON file.
        public let key: String
        /// The value under `key`.
        public let value: Value
    }

    private var storage: OrderedDictionary<JSONKey, Value> = [:]

    /// An empty list.
    public init() {}

    /// Builds a list from key–value pairs in order; a repeated key keeps its first position
    /// and takes the later value.
    public init(_ pairs: [(String, Value)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// Entries in insertion order. O(n): prefer `keys`, `count` or the subscript.
    public var entries: [Entry] { storage.map { Entry(key: $0.key.string, value: $0.value) } }

    /// Keys in insertion order.
    public var keys: [String] { storage.keys.map(\.string) }

    /// Number of entries.
    public var count: Int { storage.count }

    /// Whether the list has no entries.
    public var isEmpty: Bool { storage.isEmpty }

    /// The value for `key`, or nil. Setting an existing key replaces its value in place;
    /// setting a new key appends it; setting nil removes the key.
    public subscript(key: String) -> Value? {
        get { storage[JSONKey(key)] }
        set { storage[JSONKey(key)] = newValue }
    }

    /// Whether `key` is present. O(1).
    public func contains(_ key: String) -> Bool { storage.index(forKey: JSONKey(key)) != nil }

    /// A list with the same keys, in the same order, and transformed values.
    public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> KeyedList<T> {
        var result = KeyedList<T>()
        result.storage = try storage.mapValues(transform)
        return result
    }
}

extension KeyedList.Entry: Sendable where Value: Sendable {}
extension KeyedList.Entry: Equatable where Value: Equatable {}
extension KeyedList.Entry: Hashable where Value: Hashable {}
extension KeyedList: Sendable where Value: Sendable {}

extension KeyedList: Equatable where Value: Equatable {
    /// Equal when both hold the same keys in the same order with equal values.
    public static func == (lhs: KeyedList, rhs: KeyedList) -> Bool {
        lhs.storage.count == rhs.storage.count && lhs.storage.elementsEqual(rhs.storage) { $0.key == $1.key && $0.value == $1.value }
    }
}

extension KeyedList: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.count)
        for (key, value) in storage {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
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
        for (key, value) in storage {
            try container.encode(value, forKey: AnyCodingKey(key.string))
        }
    }
}
