/// What is wrong at one place of a theme.
public enum ThemeProblem: Sendable, Hashable {
    /// A colour field names a colour that `colors` does not define.
    case unknownColorReference(String)
    /// A `font` field names a font that `fonts` does not define.
    case unknownFontReference(String)
    /// A `dark.colors` entry overrides a colour that `colors` does not define.
    case unknownDarkOverride(String)
    /// A colour value is not valid hex (`#RGB`, `#RRGGBB`, `#RRGGBBAA`).
    case malformedHex(String, HexColorError)
    /// A radius is negative.
    case negativeValue(Double)
    /// A font size is zero or negative.
    case nonPositiveFontSize(Double)
    /// A shadow opacity lies outside 0…1.
    case opacityOutOfRange(Double)
    /// A number CSS cannot carry: it rounds to 0 at four decimals without being 0, or its
    /// magnitude is 10^14 or more.
    case numberNotRepresentable(Double)
    /// `metadata.version` is not a semantic version.
    case invalidVersion(String, SemanticVersionError)
    /// A font's platform name is empty.
    case emptyFontName
    /// A colour, font or component name cannot become part of a CSS identifier.
    case invalidTokenName(String)
    /// Two tokens would produce the same CSS custom property; `otherPath` produced it first.
    case cssPropertyCollision(property: String, otherPath: String)
    /// A key the contract does not know (kept, ignored when applying).
    case unknownKey
    /// The document could not be decoded at all.
    case undecodable(ThemeDecodingError)
    /// The file could not be read.
    case unreadableFile(String)

    /// Only unknown keys are warnings; everything else keeps a theme from being applied.
    public var severity: ThemeIssueSeverity {
        if case .unknownKey = self { .warning } else { .error }
    }

    /// Whether ``message`` already says the line and column (JSON structure problems).
    var messageNamesLocation: Bool {
        switch self {
        case .undecodable(.malformedJSON), .undecodable(.duplicateKey): true
        default: false
        }
    }

    /// A sentence for people, without the path.
    public var message: String {
        switch self {
        case .unknownColorReference(let name):
            let hint = (try? RGBAColor(hex: "#" + name)) != nil ? " (hex colours start with #)" : ""
            return "unknown colour \"\(name)\": not a hex colour and not a name in colors\(hint)"
        case .unknownFontReference(let name):
            return "unknown font \"\(name)\": not a name in fonts"
        case .unknownDarkOverride(let name):
            return "dark override of unknown colour \"\(name)\": not a name in colors"
        case .malformedHex(let text, let error):
            return "malformed hex colour \"\(text)\": \(error)"
        case .negativeValue(let value):
            return "must not be negative, found \(CSSNumber.format(value))"
        case .nonPositiveFontSize(let value):
            return "font size must be greater than 0, found \(CSSNumber.format(value))"
        case .opacityOutOfRange(let value):
            return "opacity must lie in 0…1, found \(CSSNumber.format(value))"
        case .numberNotRepresentable(let value):
            return value.magnitude < 1
                ? "a value below 0.00005 rounds to 0 in CSS (four decimals); use 0 or a larger value"
                : "\(CSSNumber.format(value)) is too large for CSS (at most 99999999999999.9999)"
        case .invalidVersion(let text, let error):
            return "\"\(text)\" is not a semantic version: \(error)"
        case .emptyFontName:
            return "font name is empty"
        case .invalidTokenName(let name):
            return "name \"\(name)\" must match [A-Za-z][A-Za-z0-9_-]* to become a CSS custom property"
        case .cssPropertyCollision(let property, let otherPath):
            return "CSS custom property \(property) is also produced by \(otherPath)"
        case .unknownKey:
            return "unknown key (kept, not used)"
        case .undecodable(let error):
            return error.reason
        case .unreadableFile(let reason):
            return "cannot read the file: \(reason)"
        }
    }
}
