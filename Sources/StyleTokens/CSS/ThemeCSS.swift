/// Turns a resolved theme into one stylesheet of CSS custom properties.
///
/// Layout (exact, tested):
/// ```
/// /* statehub-theme 1.1.0 */
/// :root {
///   --color-primary: #007aff;
///   --font-body-family: "HelveticaNeue";
///   --font-body-size: 17px;
///   --primary-button-background-color: #007aff;
/// }
///
/// @media (prefers-color-scheme: dark) {
///   :root {
///     --color-primary: #0a84ff;
///     --primary-button-background-color: #0a84ff;
///   }
/// }
/// ```
/// `:root` lists colours, then fonts, then components, each in file order; a component lists
/// only the fields it sets, in `ComponentCSSProperty` order. Colours are lowercase hex
/// (`#rrggbb`, or `#rrggbbaa` when not opaque), sizes are px (1 point = 1 CSS px), opacity is a
/// bare number. The dark block (only when `dark` overrides something) lists the overridden colours
/// and every component colour that names one, with their dark values.
public enum ThemeCSS {
    /// The id of the one replaceable stylesheet the theme occupies in a page.
    public static let styleSheetID = "statehub-theme"

    /// The stylesheet for `theme`. O(n) in the number of tokens.
    public static func stylesheet(for theme: ResolvedTheme) -> String {
        var lines = ["/* statehub-theme \(theme.version) */", ":root {"]
        lines += rootDeclarations(for: theme).map { "  \($0)" }
        lines.append("}")
        let dark = darkDeclarations(for: theme)
        if !dark.isEmpty {
            lines += ["", "@media (prefers-color-scheme: dark) {", "  :root {"]
            lines += dark.map { "    \($0)" }
            lines += ["  }", "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func declaration(_ property: String, _ value: String) -> String { "\(property): \(value);" }

    private static func rootDeclarations(for theme: ResolvedTheme) -> [String] {
        var declarations: [String] = []
        for entry in theme.light.colors.entries {
            declarations.append(declaration(CSSPropertyNames.color(entry.key), entry.value.hexString))
        }
        for entry in theme.fonts.entries {
            declarations.append(declaration(CSSPropertyNames.fontFamily(entry.key), CSSString.quoted(entry.value.name)))
            declarations.append(declaration(CSSPropertyNames.fontSize(entry.key), CSSNumber.pixels(entry.value.size)))
        }
        for entry in theme.light.components.entries {
            declarations += componentDeclarations(entry.key, entry.value)
        }
        return declarations
    }

    private static func componentDeclarations(_ name: String, _ style: ResolvedComponentStyle) -> [String] {
        var declarations: [String] = []
        func add(_ property: ComponentCSSProperty, _ value: String) {
            declarations.append(declaration(CSSPropertyNames.component(name, property), value))
        }
        if let color = style.backgroundColor { add(.backgroundColor, color.hexString) }
        if let color = style.textColor { add(.textColor, color.hexString) }
        if let radius = style.cornerRadius { add(.cornerRadius, CSSNumber.pixels(radius)) }
        if let font = style.font {
            add(.fontFamily, CSSString.quoted(font.name))
            add(.fontSize, CSSNumber.pixels(font.size))
        }
        if let shadow = style.shadow {
            add(.shadowColor, shadow.color.hexString)
            add(.shadowOpacity, CSSNumber.format(shadow.opacity))
            add(.shadowRadius, CSSNumber.pixels(shadow.radius))
            add(.shadowX, CSSNumber.pixels(shadow.x))
            add(.shadowY, CSSNumber.pixels(shadow.y))
        }
        return declarations
    }

    private static func darkDeclarations(for theme: ResolvedTheme) -> [String] {
        let overridden = Set(theme.darkOverriddenColorNames)
        guard !overridden.isEmpty else { return [] }
        var declarations: [String] = []
        for entry in theme.dark.colors.entries where overridden.contains(entry.key) {
            declarations.append(declaration(CSSPropertyNames.color(entry.key), entry.value.hexString))
        }
        // A component colour follows dark mode only when it names an overridden colour;
        // hex literals are the same in both appearances.
        func followsDark(_ reference: String?) -> Bool { reference.map(overridden.contains) ?? false }
        for entry in theme.contract.components.entries {
            guard let style = theme.dark.components[entry.key] else { continue }
            let source = entry.value
            if followsDark(source.backgroundColor), let color = style.backgroundColor {
                declarations.append(declaration(CSSPropertyNames.component(entry.key, .backgroundColor), color.hexString))
            }
            if followsDark(source.textColor), let color = style.textColor {
                declarations.append(declaration(CSSPropertyNames.component(entry.key, .textColor), color.hexString))
            }
            if followsDark(source.shadow?.color), let color = style.shadow?.color {
                declarations.append(declaration(CSSPropertyNames.component(entry.key, .shadowColor), color.hexString))
            }
        }
        return declarations
    }
}
