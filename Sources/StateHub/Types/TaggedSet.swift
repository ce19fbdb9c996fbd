import JSEngine

/// A JavaScript `Set` in its tagged form, `{"$type":"Set","values":[…]}` (docs/PROTOCOL.md A.3),
/// as `statehub types` maps it (docs/types.md). The members stay in insertion order, in an
/// array: a generated member type is `Equatable`, not always `Hashable`.
public struct TaggedSet<Element: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The members, in insertion order.
    public var values: [Element]

    public init(_ values: [Element]) { self.values = values }

    private enum CodingKeys: String, CodingKey {
        case type = "$type"
        case values
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .type)
        guard tag == "Set" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "expected a tagged Set, found $type \(tag)")
        }
        values = try container.decode([Element].self, forKey: .values)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Set", forKey: .type)
        try container.encode(values, forKey: .values)
    }
}
