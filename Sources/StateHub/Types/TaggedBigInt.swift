import JSEngine

/// A JavaScript `BigInt` in its tagged form, `{"$type":"BigInt","value":"123"}` (docs/PROTOCOL.md
/// A.3), as `statehub types` maps it (docs/types.md): the decimal text, which no Swift integer
/// type holds in general.
public struct TaggedBigInt: Codable, Hashable, Sendable {
    /// Decimal digits with an optional leading `-`.
    public var decimal: String

    public init(decimal: String) { self.decimal = decimal }

    /// The value when it fits an `Int`.
    public var intValue: Int? { Int(decimal) }

    private enum CodingKeys: String, CodingKey {
        case type = "$type"
        case value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .type)
        guard tag == "BigInt" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "expected a tagged BigInt, found $type \(tag)")
        }
        decimal = try container.decode(String.self, forKey: .value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("BigInt", forKey: .type)
        try container.encode(decimal, forKey: .value)
    }
}
