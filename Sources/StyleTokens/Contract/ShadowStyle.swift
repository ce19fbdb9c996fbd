import StateHubJSON

/// A component's `shadow`: colour, opacity, blur radius and offset, in points.
public struct ShadowStyle: Sendable, Hashable, Codable {
    /// A colour reference: hex (`#RGB`, `#RRGGBB`, `#RRGGBBAA`) or the name of a colour in `colors`.
    public var color: String
    /// Multiplies the colour's alpha; must lie in 0…1.
    public var opacity: Double
    /// Blur radius in points; must not be negative.
    public var radius: Double
    /// Horizontal offset in points (0 when absent).
    public var x: Double
    /// Vertical offset in points (0 when absent).
    public var y: Double
    /// Members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["color", "opacity", "radius", "x", "y"]

    public init(color: String, opacity: Double, radius: Double, x: Double = 0, y: Double = 0,
                unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.x = x
        self.y = y
        self.unknownFields = unknownFields
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        color = try container.decode(String.self, forKey: "color")
        opacity = try container.decode(Double.self, forKey: "opacity")
        radius = try container.decode(Double.self, forKey: "radius")
        x = try container.decodeIfPresent(Double.self, forKey: "x") ?? 0
        y = try container.decodeIfPresent(Double.self, forKey: "y") ?? 0
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(color, forKey: "color")
        try container.encode(opacity, forKey: "opacity")
        try container.encode(radius, forKey: "radius")
        try container.encode(x, forKey: "x")
        try container.encode(y, forKey: "y")
        try container.encodeUnknownFields(unknownFields)
    }
}
