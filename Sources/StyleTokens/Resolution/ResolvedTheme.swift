/// A validated theme with every reference resolved to platform-neutral values.
///
/// Only `ThemeResolver.resolve(_:)` makes one, and only from a contract without errors:
/// holding a `ResolvedTheme` means the theme may be applied.
public struct ResolvedTheme: Sendable, Hashable {
    /// The contract it was resolved from (kept for CSS generation and re-caching).
    public let contract: ThemeContract
    /// `metadata.version`, parsed.
    public let version: SemanticVersion
    /// `metadata.description`.
    public let description: String?
    /// Every font, in file order.
    public let fonts: KeyedList<ResolvedFont>
    /// Colours and components in light appearance (the base values).
    public let light: ResolvedAppearance
    /// Colours and components in dark appearance; equal to `light` without `dark` overrides.
    public let dark: ResolvedAppearance
    /// Names of the colours that `dark` overrides, in file order.
    public let darkOverriddenColorNames: [String]

    init(contract: ThemeContract, version: SemanticVersion, fonts: KeyedList<ResolvedFont>,
         light: ResolvedAppearance, dark: ResolvedAppearance) {
        self.contract = contract
        self.version = version
        self.description = contract.metadata.description
        self.fonts = fonts
        self.light = light
        self.dark = dark
        self.darkOverriddenColorNames = contract.dark?.colors.keys ?? []
    }

    /// Colours and components for `scheme`.
    public func appearance(_ scheme: AppearanceScheme) -> ResolvedAppearance {
        scheme == .light ? light : dark
    }

    /// The colour named `name` in `scheme`, or nil if the theme has no such colour. O(1).
    public func color(_ name: String, in scheme: AppearanceScheme = .light) -> RGBAColor? {
        appearance(scheme).colors[name]
    }

    /// The component named `name` in `scheme`, or nil. O(1).
    public func component(_ name: String, in scheme: AppearanceScheme = .light) -> ResolvedComponentStyle? {
        appearance(scheme).components[name]
    }
}
