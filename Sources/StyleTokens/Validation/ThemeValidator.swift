import Foundation
import StateHubJSON

/// Checks a decoded theme and reports every problem at once, each with its JSON path.
///
/// Errors: unknown colour or font references, malformed hex, negative radii, font sizes ≤ 0,
/// shadow opacity outside 0…1, a version that is not semver, empty font names, token names that
/// cannot become CSS identifiers, and CSS property collisions. Warnings: unknown keys.
/// Issues come in document order. Complexity: O(n) in the number of tokens.
public enum ThemeValidator {
    /// Every issue of `contract`, in document order.
    public static func validate(_ contract: ThemeContract) -> [ThemeIssue] {
        var issues: [ThemeIssue] = []
        validateMetadata(contract.metadata, into: &issues)

        for entry in contract.colors.entries {
            let path = ThemeJSONPath("colors", entry.key)
            checkTokenName(entry.key, at: path, into: &issues)
            checkHex(entry.value, at: path, into: &issues)
        }

        for entry in contract.fonts.entries {
            let path = ThemeJSONPath("fonts", entry.key)
            checkTokenName(entry.key, at: path, into: &issues)
            if entry.value.name.trimmingCharacters(in: .whitespaces).isEmpty {
                issues.append(ThemeIssue(path.appending("name"), .emptyFontName))
            }
            if !(entry.value.size > 0) {
                issues.append(ThemeIssue(path.appending("size"), .nonPositiveFontSize(entry.value.size)))
            } else {
                checkCSSNumber(entry.value.size, at: path.appending("size"), into: &issues)
            }
            reportUnknownKeys(entry.value.unknownFields, at: path, into: &issues)
        }

        for entry in contract.components.entries {
            validateComponent(entry.value, at: ThemeJSONPath("components", entry.key), name: entry.key, contract: contract, into: &issues)
        }

        if let dark = contract.dark {
            for entry in dark.colors.entries {
                let path = ThemeJSONPath("dark", "colors", entry.key)
                if !contract.colors.contains(entry.key) {
                    issues.append(ThemeIssue(path, .unknownDarkOverride(entry.key)))
                }
                checkHex(entry.value, at: path, into: &issues)
            }
            reportUnknownKeys(dark.unknownFields, at: ThemeJSONPath("dark"), into: &issues)
        }

        reportUnknownKeys(contract.unknownFields, at: .root, into: &issues)
        checkCollisions(contract, into: &issues)
        return issues
    }

    private static func validateMetadata(_ metadata: ThemeMetadata, into issues: inout [ThemeIssue]) {
        do {
            _ = try SemanticVersion(parsing: metadata.version)
        } catch {
            issues.append(ThemeIssue(ThemeJSONPath("metadata", "version"), .invalidVersion(metadata.version, error)))
        }
        reportUnknownKeys(metadata.unknownFields, at: ThemeJSONPath("metadata"), into: &issues)
    }

    private static func validateComponent(_ style: ComponentStyle, at path: ThemeJSONPath, name: String,
                                          contract: ThemeContract, into issues: inout [ThemeIssue]) {
        checkTokenName(name, at: path, into: &issues)
        if let reference = style.backgroundColor {
            checkColorReference(reference, at: path.appending("backgroundColor"), contract: contract, into: &issues)
        }
        if let reference = style.textColor {
            checkColorReference(reference, at: path.appending("textColor"), contract: contract, into: &issues)
        }
        if let radius = style.cornerRadius {
            if !(radius >= 0) {
                issues.append(ThemeIssue(path.appending("cornerRadius"), .negativeValue(radius)))
            } else {
                checkCSSNumber(radius, at: path.appending("cornerRadius"), into: &issues)
            }
        }
        if let font = style.font, !contract.fonts.contains(font) {
            issues.append(ThemeIssue(path.appending("font"), .unknownFontReference(font)))
        }
        if let shadow = style.shadow {
            let shadowPath = path.appending("shadow")
            checkColorReference(shadow.color, at: shadowPath.appending("color"), contract: contract, into: &issues)
            if !(0...1).contains(shadow.opacity) {
                issues.append(ThemeIssue(shadowPath.appending("opacity"), .opacityOutOfRange(shadow.opacity)))
            } else {
                checkCSSNumber(shadow.opacity, at: shadowPath.appending("opacity"), into: &issues)
            }
            if !(shadow.radius >= 0) {
                issues.append(ThemeIssue(shadowPath.appending("radius"), .negativeValue(shadow.radius)))
            } else {
                checkCSSNumber(shadow.radius, at: shadowPath.appending("radius"), into: &issues)
            }
            checkCSSNumber(shadow.x, at: shadowPath.appending("x"), into: &issues)
            checkCSSNumber(shadow.y, at: shadowPath.appending("y"), into: &issues)
            reportUnknownKeys(shadow.unknownFields, at: shadowPath, into: &issues)
        }
        reportUnknownKeys(style.unknownFields, at: path, into: &issues)
    }

    /// Refuses a number that CSS would print as 0 or could not print (see `CSSNumber`).
    private static func checkCSSNumber(_ value: Double, at path: ThemeJSONPath, into issues: inout [ThemeIssue]) {
        if !CSSNumber.isRepresentable(value) {
            issues.append(ThemeIssue(path, .numberNotRepresentable(value)))
        }
    }

    private static func checkHex(_ text: String, at path: ThemeJSONPath, into issues: inout [ThemeIssue]) {
        do {
            _ = try RGBAColor(hex: text)
        } catch {
            issues.append(ThemeIssue(path, .malformedHex(text, error)))
        }
    }

    private static func checkColorReference(_ text: String, at path: ThemeJSONPath, contract: ThemeContract,
                                            into issues: inout [ThemeIssue]) {
        do {
            if case .named(let name) = try ColorReference(text), !contract.colors.contains(name) {
                issues.append(ThemeIssue(path, .unknownColorReference(name)))
            }
        } catch {
            issues.append(ThemeIssue(path, .malformedHex(text, error)))
        }
    }

    private static func checkTokenName(_ name: String, at path: ThemeJSONPath, into issues: inout [ThemeIssue]) {
        guard let first = name.first, first.isASCII, first.isLetter,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else {
            issues.append(ThemeIssue(path, .invalidTokenName(name)))
            return
        }
    }

    private static func reportUnknownKeys(_ fields: KeyedList<JSONValue>, at path: ThemeJSONPath, into issues: inout [ThemeIssue]) {
        for key in fields.keys {
            issues.append(ThemeIssue(path.appending(key), .unknownKey))
        }
    }

    private static func checkCollisions(_ contract: ThemeContract, into issues: inout [ThemeIssue]) {
        var firstPathByProperty: [String: ThemeJSONPath] = [:]
        for (property, path) in CSSPropertyNames.all(for: contract) {
            if let other = firstPathByProperty[property] {
                // One component legitimately yields several properties; only distinct tokens collide.
                if other != path {
                    issues.append(ThemeIssue(path, .cssPropertyCollision(property: property, otherPath: other.description)))
                }
            } else {
                firstPathByProperty[property] = path
            }
        }
    }
}
