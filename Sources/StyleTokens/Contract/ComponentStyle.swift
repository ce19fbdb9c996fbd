import StateHubJSON

/// One entry of `components`: the style of a named UI component. Every field is optional;
/// a component only states what it sets.
public struct ComponentStyle: Sendable, Hashable, Codable {
    /// A colour reference: hex or the name of a colour in `colors`.
    public var backgroundColor: String?
    /// A colour reference: hex or the name of a colour in `colors`.
    public var textColor: String?
    /// Corner radius in points; must not be negative.
    public var cornerRadius: Double?
    /// The name of a font in `fonts`.
    public var font: String?
    /// An optional drop shadow.
    public var shadow: ShadowStyle?
    /// Members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["backgroundColor", "textColor", "cornerRadius", "font", "shadow"]

    public init(backgroundColor: String? = nil, textColor: String? = nil, cornerRadius: Double? = nil,
                font: String? = nil, shadow: ShadowStyle? = nil, unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.backgroundColor = backgroundColor
        self.textColor = textColor
        self.cornerRadius = cornerRadius
        self.font = font
        self.shadow = shadow
        self.unknownFields = unknownFields
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        backgroundColor = try container.decodeIfPresent(String.self, forKey: "backgroundColor")
        textColor = try container.decodeIfPresent(String.self, forKey: "textColor")
        cornerRadius = try container.decodeIfPresent(Double.self, forKey: "cornerRadius")
        font = try container.decodeIfPresent(String.self, forKey: "font")
        shadow = try container.decodeIfPresent(ShadowStyle.self, forKey: "shadow")
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encodeIfPresent(backgroundColor, forKey: "backgroundColor")
        try container.encodeIfPresent(textColor, forKey: "textColor")
        try container.encodeIfPresent(cornerRadius, forKey: "cornerRadius")
        try container.encodeIfPresent(font, forKey: "font")
        try container.encodeIfPresent(shadow, forKey: "shadow")
        try container.encodeUnknownFields(unknownFields)
    }
}
