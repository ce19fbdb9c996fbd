import StateHubJSON

/// The `metadata` object of a theme.
public struct ThemeMetadata: Sendable, Hashable, Codable {
    /// The theme's semantic version as written (`"1.1.0"`); `ThemeValidator` checks that it parses.
    public var version: String
    /// Free text for people.
    public var description: String?
    /// Members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["version", "description"]

    public init(version: String, description: String? = nil, unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.version = version
        self.description = description
        self.unknownFields = unknownFields
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        version = try container.decode(String.self, forKey: "version")
        description = try container.decodeIfPresent(String.self, forKey: "description")
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(version, forKey: "version")
        try container.encodeIfPresent(description, forKey: "description")
        try container.encodeUnknownFields(unknownFields)
    }
}
