/// The stable names of the CSS custom properties a theme produces (docs/style-tokens.md).
///
/// - colour `primary` → `--color-primary`
/// - font `body` → `--font-body-family`, `--font-body-size`
/// - component `primaryButton` → `--primary-button-background-color`, `--primary-button-corner-radius`, …
///   (suffixes in `ComponentCSSProperty`)
///
/// Names are turned into kebab-case by `kebabCase(_:)`. Token names are validated as
/// `[A-Za-z][A-Za-z0-9_-]*`, so the results are always valid CSS identifiers; two tokens that
/// would produce the same property are a validation error.
public enum CSSPropertyNames {
    /// camelCase → kebab-case: a hyphen goes before an uppercase letter that follows a lowercase
    /// letter or digit, and before the last capital of an acronym that starts a new word
    /// (`URLField` → `url-field`); `_` becomes `-`; everything is lowercased.
    /// `primaryButton` → `primary-button`, `heading2Large` → `heading2-large`. O(n).
    public static func kebabCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character == "_" {
                result.append("-")
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                let wordStartsAfterLowercase = previous.isLowercase || previous.isNumber
                let wordStartsAfterAcronym = previous.isUppercase && (next?.isLowercase ?? false)
                if (wordStartsAfterLowercase || wordStartsAfterAcronym), result.last != "-" {
                    result.append("-")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }

    /// `--color-<name>`.
    public static func color(_ name: String) -> String { "--color-\(kebabCase(name))" }

    /// `--font-<name>-family`.
    public static func fontFamily(_ name: String) -> String { "--font-\(kebabCase(name))-family" }

    /// `--font-<name>-size`.
    public static func fontSize(_ name: String) -> String { "--font-\(kebabCase(name))-size" }

    /// `--<component>-<property>`.
    public static func component(_ name: String, _ property: ComponentCSSProperty) -> String {
        "--\(kebabCase(name))-\(property.rawValue)"
    }

    /// Every property `contract` produces, with the JSON path of the token that produces it,
    /// in stylesheet order. Used to detect collisions before anything is generated.
    static func all(for contract: ThemeContract) -> [(property: String, path: ThemeJSONPath)] {
        var names: [(String, ThemeJSONPath)] = []
        for name in contract.colors.keys {
            names.append((color(name), ThemeJSONPath("colors", name)))
        }
        for name in contract.fonts.keys {
            names.append((fontFamily(name), ThemeJSONPath("fonts", name)))
            names.append((fontSize(name), ThemeJSONPath("fonts", name)))
        }
        for entry in contract.components.entries {
            for property in properties(of: entry.value) {
                names.append((component(entry.key, property), ThemeJSONPath("components", entry.key)))
            }
        }
        return names
    }

    /// The properties a component produces, in stylesheet order.
    static func properties(of style: ComponentStyle) -> [ComponentCSSProperty] {
        var properties: [ComponentCSSProperty] = []
        if style.backgroundColor != nil { properties.append(.backgroundColor) }
        if style.textColor != nil { properties.append(.textColor) }
        if style.cornerRadius != nil { properties.append(.cornerRadius) }
        if style.font != nil { properties += [.fontFamily, .fontSize] }
        if style.shadow != nil { properties += [.shadowColor, .shadowOpacity, .shadowRadius, .shadowX, .shadowY] }
        return properties
    }
}
