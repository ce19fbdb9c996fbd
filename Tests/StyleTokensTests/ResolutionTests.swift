import Foundation
import Testing
@testable import StyleTokens

@Suite("Theme resolution", .tags(.unit))
struct ResolutionTests {
    @Test("the contract example resolves exactly")
    func standardExampleResolves() throws {
        let theme = try ThemeLoader.load(ThemeFixtures.data(ThemeFixtures.standardJSON))
        #expect(theme.version == SemanticVersion(major: 1, minor: 1, patch: 0))
        #expect(theme.description == "Standard theme with updated primary button style.")
        #expect(theme.color("primary") == RGBAColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1))

        let button = try #require(theme.component("primaryButton"))
        #expect(button.backgroundColor == RGBAColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1))
        #expect(button.textColor == RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(button.cornerRadius == 12)
        #expect(button.font == ResolvedFont(token: "body", name: "HelveticaNeue", size: 17))
        #expect(button.shadow == nil)

        let card = try #require(theme.component("cardView"))
        #expect(card.cornerRadius == 16)
        #expect(card.shadow == ResolvedShadow(color: RGBAColor(red: 0, green: 0, blue: 0), opacity: 0.1, radius: 8, x: 0, y: 4))
        #expect(card.font == nil)
        // Without dark overrides, dark appearance is the light one.
        #expect(theme.dark == theme.light)
    }

    @Test("the repository's example file is the contract example")
    func repositoryExampleMatches() throws {
        let url = ThemeFixtures.repositoryRoot.appendingPathComponent("examples/themes/standard.json")
        let fromFile = try ThemeContract(jsonData: Data(contentsOf: url))
        let embedded = try ThemeContract(jsonData: ThemeFixtures.data(ThemeFixtures.standardJSON))
        #expect(fromFile == embedded)
    }

    @Test("dark overrides reach components that name the overridden colour", arguments: [
        ("primaryButton", RGBAColor(red: 10 / 255, green: 132 / 255, blue: 1)),
    ])
    func darkAppearance(component: String, expected: RGBAColor) throws {
        let theme = try ThemeLoader.load(ThemeFixtures.data(ThemeFixtures.smallJSON))
        #expect(theme.component(component, in: .dark)?.backgroundColor == expected)
        #expect(theme.component(component, in: .light)?.backgroundColor == RGBAColor(red: 0, green: 122 / 255, blue: 1))
        // A hex literal does not change with appearance.
        #expect(theme.component(component, in: .dark)?.textColor == RGBAColor(red: 1, green: 1, blue: 1))
        #expect(theme.darkOverriddenColorNames == ["primary", "surface"])
    }

    @Test("hex colours in all three forms", arguments: [
        ("#0AF", RGBAColor(red: 0, green: 170 / 255, blue: 1, alpha: 1)),
        ("#007AFF", RGBAColor(red: 0, green: 122 / 255, blue: 1, alpha: 1)),
        ("#007aff80", RGBAColor(red: 0, green: 122 / 255, blue: 1, alpha: 128 / 255)),
    ])
    func parsesHex(text: String, expected: RGBAColor) throws {
        let color = try RGBAColor(hex: text)
        #expect(color == expected)
    }

    @Test("malformed hex says what is wrong", arguments: [
        ("007AFF", HexColorError.missingHash),
        ("#07AF", HexColorError.wrongDigitCount(4)),
        ("#12345G", HexColorError.invalidDigit("G")),
        ("#", HexColorError.wrongDigitCount(0)),
    ])
    func rejectsMalformedHex(text: String, expected: HexColorError) {
        #expect(throws: expected) { try RGBAColor(hex: text) }
    }

    @Test("hexString gives back the parsed digits")
    func hexRoundTrip() throws {
        #expect(try RGBAColor(hex: "#007AFF").hexString == "#007aff")
        #expect(try RGBAColor(hex: "#00000080").hexString == "#00000080")
        #expect(try RGBAColor(hex: "#0AF").hexString == "#00aaff")
    }

    @Test("semantic versions parse strictly and order by precedence")
    func semanticVersions() throws {
        let version = try SemanticVersion(parsing: "1.2.3-beta.2+build.7")
        #expect(version.major == 1 && version.minor == 2 && version.patch == 3)
        #expect(version.prerelease == ["beta", "2"])
        #expect(version.build == ["build", "7"])
        #expect(version.description == "1.2.3-beta.2+build.7")
        #expect(try SemanticVersion(parsing: "1.0.0-alpha") < SemanticVersion(parsing: "1.0.0"))
        #expect(try SemanticVersion(parsing: "1.0.0-alpha.2") < SemanticVersion(parsing: "1.0.0-alpha.10"))
        #expect(try SemanticVersion(parsing: "1.9.0") < SemanticVersion(parsing: "1.10.0"))
        #expect(throws: SemanticVersionError.notThreeNumbers) { try SemanticVersion(parsing: "1.2") }
        #expect(throws: SemanticVersionError.invalidNumber("01")) { try SemanticVersion(parsing: "1.01.0") }
        #expect(throws: SemanticVersionError.notThreeNumbers) { try SemanticVersion(parsing: "v1.0.0.0") }
        #expect(throws: SemanticVersionError.invalidIdentifier("")) { try SemanticVersion(parsing: "1.0.0-") }
    }
}
