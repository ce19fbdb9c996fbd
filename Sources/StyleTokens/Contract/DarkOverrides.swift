import StateHubJSON

/// The optional `dark` object: colours that change in dark appearance.
///
/// Shape: `"dark": { "colors": { "primary": "#0A84FF" } }`. Each name must exist in the
/// top-level `colors`; each value is a hex colour. Components that name an overridden colour
/// follow it in dark appearance.
public struct DarkOverrides: Sendable, Hashable, Codable {
    /// Overridden colours, name → hex, in file order.
    public var colors: KeyedList<String>
    /// Members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["colors"]

    public init(colors: KeyedList<String>, unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.colors = colors
        self.unknownFields = unknownFields
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        colors = try container.decodeIfPresent(KeyedList<String>.self, forKey: "colors") ?? KeyedList()
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(colors, forKey: "colors")
        try container.encodeUnknownFields(unknownFields)
    }
}
