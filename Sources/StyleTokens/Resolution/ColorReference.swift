/// What a colour field in a theme says: a literal hex colour or the name of a colour in `colors`.
/// A value starting with `#` is always read as hex, so `#GGG` is a malformed hex, never a name.
enum ColorReference: Sendable, Hashable {
    case literal(RGBAColor)
    case named(String)

    /// Reads a colour field; throws only for text that starts with `#` and is not valid hex.
    init(_ text: String) throws(HexColorError) {
        if text.hasPrefix("#") {
            self = .literal(try RGBAColor(hex: text))
        } else {
            self = .named(text)
        }
    }
}
