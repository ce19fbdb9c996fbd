/// Turns a contract into a `ResolvedTheme`, or refuses it with every issue found.
public enum ThemeResolver {
    /// Validates `contract` and resolves every reference. Throws when validation finds any
    /// error (warnings alone do not stop it), so a theme with errors is never applied.
    /// Complexity: O(n) in the number of tokens.
    public static func resolve(_ contract: ThemeContract) throws(ThemeValidationFailure) -> ResolvedTheme {
        let issues = ThemeValidator.validate(contract)
        guard !issues.contains(where: { $0.severity == .error }) else { throw ThemeValidationFailure(issues: issues) }
        do {
            let version = try SemanticVersion(parsing: contract.metadata.version)
            let namedFonts = KeyedList(contract.fonts.entries.map {
                ($0.key, ResolvedFont(token: $0.key, name: $0.value.name, size: $0.value.size))
            })
            let lightColors = try contract.colors.mapValues { try RGBAColor(hex: $0) }
            var darkColors = lightColors
            for entry in contract.dark?.colors.entries ?? [] {
                darkColors[entry.key] = try RGBAColor(hex: entry.value)
            }
            return ResolvedTheme(
                contract: contract, version: version, fonts: namedFonts,
                light: try appearance(contract, colors: lightColors, fonts: namedFonts),
                dark: try appearance(contract, colors: darkColors, fonts: namedFonts))
        } catch let error as UnresolvedReference {
            // Validation has already proven every step above; this only guards against the two drifting apart.
            throw ThemeValidationFailure(issues: issues + [ThemeIssue(error.path, error.problem)])
        } catch let error as HexColorError {
            throw ThemeValidationFailure(issues: issues + [ThemeIssue(path: "$", problem: .malformedHex("", error))])
        } catch let error as SemanticVersionError {
            throw ThemeValidationFailure(issues: issues + [ThemeIssue(ThemeJSONPath("metadata", "version"),
                                                                      .invalidVersion(contract.metadata.version, error))])
        } catch {
            throw ThemeValidationFailure(issues: issues)
        }
    }

    private struct UnresolvedReference: Error {
        let path: ThemeJSONPath
        let problem: ThemeProblem
    }

    private static func appearance(_ contract: ThemeContract, colors: KeyedList<RGBAColor>,
                                   fonts: KeyedList<ResolvedFont>) throws -> ResolvedAppearance {
        func color(_ text: String, _ path: ThemeJSONPath) throws -> RGBAColor {
            switch try ColorReference(text) {
            case .literal(let value): return value
            case .named(let name):
                guard let value = colors[name] else { throw UnresolvedReference(path: path, problem: .unknownColorReference(name)) }
                return value
            }
        }
        var components = KeyedList<ResolvedComponentStyle>()
        for entry in contract.components.entries {
            let style = entry.value
            let path = ThemeJSONPath("components", entry.key)
            var font: ResolvedFont?
            if let name = style.font {
                guard let resolved = fonts[name] else { throw UnresolvedReference(path: path.appending("font"), problem: .unknownFontReference(name)) }
                font = resolved
            }
            var shadow: ResolvedShadow?
            if let source = style.shadow {
                shadow = ResolvedShadow(color: try color(source.color, path.appending("shadow").appending("color")),
                                        opacity: source.opacity, radius: source.radius, x: source.x, y: source.y)
            }
            components[entry.key] = ResolvedComponentStyle(
                backgroundColor: try style.backgroundColor.map { try color($0, path.appending("backgroundColor")) },
                textColor: try style.textColor.map { try color($0, path.appending("textColor")) },
                cornerRadius: style.cornerRadius,
                font: font,
                shadow: shadow)
        }
        return ResolvedAppearance(colors: colors, components: components)
    }
}
