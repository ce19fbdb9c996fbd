import Foundation
import StateHubJSON

/// A theme as the server sends it: colours, fonts and component styles that refer to each
/// other by name, plus optional dark-appearance colour overrides.
///
/// Decoding only checks structure (JSON types, required fields); references, hex syntax,
/// ranges and the version are checked by `ThemeValidator`, which reports every problem at once.
/// Colours, fonts, components and unknown members keep their file order when decoded with
/// `ThemeContract(jsonData:)` / `ThemeJSONDecoder`. Members the contract does not know are
/// kept (and re-encoded) and reported as warnings.
public struct ThemeContract: Sendable, Hashable, Codable {
    /// Version and description.
    public var metadata: ThemeMetadata
    /// Named colours, name → hex string, in file order.
    public var colors: KeyedList<String>
    /// Named fonts in file order.
    public var fonts: KeyedList<FontDefinition>
    /// Named component styles in file order.
    public var components: KeyedList<ComponentStyle>
    /// Dark-appearance colour overrides, if any.
    public var dark: DarkOverrides?
    /// Top-level members the contract does not know, kept in file order.
    public var unknownFields: KeyedList<JSONValue>

    static let knownKeys: Set<String> = ["metadata", "colors", "fonts", "components", "dark"]

    public init(metadata: ThemeMetadata, colors: KeyedList<String> = KeyedList(), fonts: KeyedList<FontDefinition> = KeyedList(),
                components: KeyedList<ComponentStyle> = KeyedList(), dark: DarkOverrides? = nil,
                unknownFields: KeyedList<JSONValue> = KeyedList()) {
        self.metadata = metadata
        self.colors = colors
        self.fonts = fonts
        self.components = components
        self.dark = dark
        self.unknownFields = unknownFields
    }

    /// Decodes a theme from JSON bytes, keeping file order. O(n) in the size of `jsonData`.
    public init(jsonData: Data) throws(ThemeDecodingError) {
        self = try ThemeJSONDecoder().decode(ThemeContract.self, from: jsonData)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        metadata = try container.decode(ThemeMetadata.self, forKey: "metadata")
        colors = try container.decodeIfPresent(KeyedList<String>.self, forKey: "colors") ?? KeyedList()
        fonts = try container.decodeIfPresent(KeyedList<FontDefinition>.self, forKey: "fonts") ?? KeyedList()
        components = try container.decodeIfPresent(KeyedList<ComponentStyle>.self, forKey: "components") ?? KeyedList()
        dark = try container.decodeIfPresent(DarkOverrides.self, forKey: "dark")
        unknownFields = try container.unknownFields(known: Self.knownKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(metadata, forKey: "metadata")
        try container.encode(colors, forKey: "colors")
        try container.encode(fonts, forKey: "fonts")
        try container.encode(components, forKey: "components")
        try container.encodeIfPresent(dark, forKey: "dark")
        try container.encodeUnknownFields(unknownFields)
    }
}
