import JSEngine

/// A JavaScript `Map` in its tagged form, `{"$type":"Map","entries":[[K,V],…]}` (docs/PROTOCOL.md
/// A.3), as `statehub types` maps it (docs/types.md). Keys may be any value (a Map's keys are not
/// only strings), so the entries stay pairs, in insertion order.
public struct TaggedMap<Key: Codable & Equatable & Sendable, Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// One `[key, value]` pair.
    public struct Entry: Codable, Equatable, Sendable {
        public var key: Key
        public var value: Value

        public init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }

        public init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            key = try pair.decode(Key.self)
            value = try pair.decode(Value.self)
            guard pair.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: pair, debugDescription: "a Map entry is a [key, value] pair")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(key)
            try pair.encode(value)
        }
    }

    /// The entries, in insertion order.
    public var entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// The value of the first entry whose key is `key` (O(n)).
    public subscript(key: Key) -> Value? { entries.first { $0.key == key }?.value }

    private enum CodingKeys: String, CodingKey {
        case type = "$type"
        case entries
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .type)
        guard tag == "Map" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "expected a tagged Map, found $type \(tag)")
        }
        entries = try container.decode([Entry].self, forKey: .entries)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Map", forKey: .type)
        try container.encode(entries, forKey: .entries)
    }
}
