/// A component style with every reference resolved, in one appearance (light or dark).
/// Absent fields stay nil: the theme did not set them.
public struct ResolvedComponentStyle: Sendable, Hashable {
    public let backgroundColor: RGBAColor?
    public let textColor: RGBAColor?
    /// Points, not negative.
    public let cornerRadius: Double?
    public let font: ResolvedFont?
    public let shadow: ResolvedShadow?

    public init(backgroundColor: RGBAColor? = nil, textColor: RGBAColor? = nil, cornerRadius: Double? = nil,
                font: ResolvedFont? = nil, shadow: ResolvedShadow? = nil) {
        self.backgroundColor = backgroundColor
        self.textColor = textColor
        self.cornerRadius = cornerRadius
        self.font = font
        self.shadow = shadow
    }
}
