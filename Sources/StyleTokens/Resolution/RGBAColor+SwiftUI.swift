#if canImport(SwiftUI)
import SwiftUI

extension Color {
    /// The theme colour as a SwiftUI colour in the sRGB space.
    public init(_ color: RGBAColor) {
        self.init(.sRGB, red: color.red, green: color.green, blue: color.blue, opacity: color.alpha)
    }
}

extension Font {
    /// The theme font as a SwiftUI custom font of the theme's point size, scaled with
    /// Dynamic Type like `.body` (accessibility settings win over the theme).
    public static func themed(_ font: ResolvedFont) -> Font {
        .custom(font.name, size: CGFloat(font.size))
    }
}

extension ResolvedShadow {
    /// The shadow colour with its opacity applied, for `View.shadow(color:radius:x:y:)`.
    public var swiftUIColor: Color { Color(effectiveColor) }
}
#endif
