/// A shadow with its colour resolved. `color` is the colour as named; `opacity` is kept
/// apart so that platforms that take both (SwiftUI, CALayer) get them unmixed.
public struct ResolvedShadow: Sendable, Hashable {
    public let color: RGBAColor
    /// 0…1.
    public let opacity: Double
    /// Blur radius in points, not negative.
    public let radius: Double
    public let x: Double
    public let y: Double

    public init(color: RGBAColor, opacity: Double, radius: Double, x: Double, y: Double) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.x = x
        self.y = y
    }

    /// The colour with `opacity` applied to its alpha, as CSS `box-shadow` wants it.
    public var effectiveColor: RGBAColor { color.multiplyingAlpha(by: opacity) }
}
