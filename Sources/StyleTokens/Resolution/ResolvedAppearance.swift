/// Colours and components resolved for one appearance. In dark appearance, overridden
/// colours take their dark value, and so do component colours that name them.
public struct ResolvedAppearance: Sendable, Hashable {
    /// Every colour of the theme, in file order.
    public let colors: KeyedList<RGBAColor>
    /// Every component, in file order.
    public let components: KeyedList<ResolvedComponentStyle>

    public init(colors: KeyedList<RGBAColor>, components: KeyedList<ResolvedComponentStyle>) {
        self.colors = colors
        self.components = components
    }
}
