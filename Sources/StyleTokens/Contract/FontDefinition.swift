import StateHubJSON

/// One entry of `fonts`: a font family or face name and a size in points.
public struct FontDefinition: Sendable, Hashable, Codable {
    /// The font name as the platform knows it (`"HelveticaNeue-Bold"`).
    public var name: String
    /// Size in points; `ThemeValidator` requires it to be greater than zero.
    public var size: Double
    /// Members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["name", "size"]

    public init(name: String, size: Double, unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.name = name
        self.size = size
        self.unknownFields = unknownFields
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        name = try container.decode(String.self, forKey: "name")
        size = try container.decode(Double.self, forKey: "size")
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(name, forKey: "name")
        try container.encode(size, forKey: "size")
        try container.encodeUnknownFields(unknownFields)
    }
}
