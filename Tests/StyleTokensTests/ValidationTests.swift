import Foundation
import Testing
@testable import StyleTokens

@Suite("Theme validation", .tags(.unit))
struct ValidationTests {
    /// The standard example with one JSON fragment replaced, validated.
    private func issues(replacing original: String, with replacement: String) throws -> [ThemeIssue] {
        let json = ThemeFixtures.standardJSON.replacingOccurrences(of: original, with: replacement)
        #expect(json != ThemeFixtures.standardJSON, "fixture fragment not found: \(original)")
        return ThemeValidator.validate(try ThemeContract(jsonData: ThemeFixtures.data(json)))
    }

    @Test("the contract example has no issues")
    func standardIsClean() throws {
        #expect(ThemeValidator.validate(try ThemeContract(jsonData: ThemeFixtures.data(ThemeFixtures.standardJSON))).isEmpty)
    }

    @Test("each error names its path", arguments: [
        (#""backgroundColor": "primary""#, #""backgroundColor": "primry""#,
         ThemeIssue(path: "components.primaryButton.backgroundColor", problem: .unknownColorReference("primry"))),
        (#""font": "body""#, #""font": "bodyText""#,
         ThemeIssue(path: "components.primaryButton.font", problem: .unknownFontReference("bodyText"))),
        (##""primary": "#007AFF""##, ##""primary": "#007AFG""##,
         ThemeIssue(path: "colors.primary", problem: .malformedHex("#007AFG", .invalidDigit("G")))),
        (##""textColor": "#FFFFFF""##, ##""textColor": "#FFFF""##,
         ThemeIssue(path: "components.primaryButton.textColor", problem: .malformedHex("#FFFF", .wrongDigitCount(4)))),
        (#""cornerRadius": 12.0"#, #""cornerRadius": -12.0"#,
         ThemeIssue(path: "components.primaryButton.cornerRadius", problem: .negativeValue(-12))),
        (#""radius": 8"#, #""radius": -8"#,
         ThemeIssue(path: "components.cardView.shadow.radius", problem: .negativeValue(-8))),
        (#""size": 17"#, #""size": -17"#,
         ThemeIssue(path: "fonts.body.size", problem: .nonPositiveFontSize(-17))),
        (#""opacity": 0.1"#, #""opacity": 1.1"#,
         ThemeIssue(path: "components.cardView.shadow.opacity", problem: .opacityOutOfRange(1.1))),
        (#""opacity": 0.1"#, #""opacity": -0.1"#,
         ThemeIssue(path: "components.cardView.shadow.opacity", problem: .opacityOutOfRange(-0.1))),
        (#""version": "1.1.0""#, #""version": "1.1""#,
         ThemeIssue(path: "metadata.version", problem: .invalidVersion("1.1", .notThreeNumbers))),
        (#""name": "HelveticaNeue","#, #""name": " ","#,
         ThemeIssue(path: "fonts.body.name", problem: .emptyFontName)),
        (##""error": "#FF3B30""##, ##""error!": "#FF3B30""##,
         ThemeIssue(path: #"colors["error!"]"#, problem: .invalidTokenName("error!"))),
        (#""cornerRadius": 12.0"#, #""cornerRadius": 1e-29"#,
         ThemeIssue(path: "components.primaryButton.cornerRadius", problem: .numberNotRepresentable(1e-29))),
        (#""size": 17"#, #""size": 1e308"#,
         ThemeIssue(path: "fonts.body.size", problem: .numberNotRepresentable(1e308))),
        (#""radius": 8"#, #""radius": 0.00004"#,
         ThemeIssue(path: "components.cardView.shadow.radius", problem: .numberNotRepresentable(0.00004))),
    ])
    func eachErrorHasPath(original: String, replacement: String, expected: ThemeIssue) throws {
        let found = try issues(replacing: original, with: replacement)
        #expect(found == [expected])
        #expect(expected.severity == .error)
    }

    @Test("a dark override of a colour that does not exist is an error")
    func darkOverrideMustExist() throws {
        let found = try issues(replacing: #""components": {"#, with: ##""dark": {"colors": {"accent": "#000", "primary": "#0A84F"}}, "components": {"##)
        #expect(found == [
            ThemeIssue(path: "dark.colors.accent", problem: .unknownDarkOverride("accent")),
            ThemeIssue(path: "dark.colors.primary", problem: .malformedHex("#0A84F", .wrongDigitCount(5))),
        ])
    }

    @Test("two tokens producing the same CSS property collide")
    func cssCollision() throws {
        let json = ##"{"metadata":{"version":"1.0.0"},"colors":{"cardBg":"#000","card-bg":"#111"}}"##
        let found = ThemeValidator.validate(try ThemeContract(jsonData: ThemeFixtures.data(json)))
        #expect(found == [ThemeIssue(path: "colors.card-bg", problem: .cssPropertyCollision(property: "--color-card-bg", otherPath: "colors.cardBg"))])
    }

    @Test("every problem is reported at once, in document order, with warnings for unknown keys")
    func reportsEverythingTogether() throws {
        let url = ThemeFixtures.repositoryRoot.appendingPathComponent("examples/themes/broken.json")
        let contract = try ThemeContract(jsonData: Data(contentsOf: url))
        let found = ThemeValidator.validate(contract)
        #expect(found == [
            ThemeIssue(path: "metadata.version", problem: .invalidVersion("1.2", .notThreeNumbers)),
            ThemeIssue(path: "metadata.author", problem: .unknownKey),
            ThemeIssue(path: "colors.accent", problem: .malformedHex("#12345G", .invalidDigit("G"))),
            ThemeIssue(path: "fonts.body.size", problem: .nonPositiveFontSize(-17)),
            ThemeIssue(path: "components.primaryButton.backgroundColor", problem: .unknownColorReference("primry")),
            ThemeIssue(path: "components.primaryButton.cornerRadius", problem: .negativeValue(-4)),
            ThemeIssue(path: "components.primaryButton.font", problem: .unknownFontReference("headline")),
            ThemeIssue(path: "components.cardView.shadow.opacity", problem: .opacityOutOfRange(1.5)),
            ThemeIssue(path: "components.cardView.elevation", problem: .unknownKey),
            ThemeIssue(path: "dark.colors.secondary", problem: .unknownDarkOverride("secondary")),
        ])
        #expect(found.filter { $0.severity == .warning }.map(\.path) == ["metadata.author", "components.cardView.elevation"])
    }

    @Test("a theme with errors is never resolved; warnings alone do not stop it")
    func errorsBlockResolution() throws {
        let broken = try ThemeContract(jsonData: ThemeFixtures.data(ThemeFixtures.theme(version: "1.0.0", primary: "#XYZ")))
        let failure = #expect(throws: ThemeValidationFailure.self) { try ThemeResolver.resolve(broken) }
        #expect(failure?.errors == [ThemeIssue(path: "colors.primary", problem: .malformedHex("#XYZ", .invalidDigit("X")))])

        let withWarning = try ThemeContract(jsonData: ThemeFixtures.data(#"{"metadata":{"version":"1.0.0"},"future":true}"#))
        #expect(try ThemeResolver.resolve(withWarning).version == SemanticVersion(major: 1, minor: 0, patch: 0))
    }

    @Test("messages say what is wrong and hint at a missing #")
    func messages() {
        #expect(ThemeIssue(path: "components.primaryButton.backgroundColor", problem: .unknownColorReference("007AFF")).description
            == "error: components.primaryButton.backgroundColor: unknown colour \"007AFF\": not a hex colour and not a name in colors (hex colours start with #)")
        #expect(ThemeIssue(path: "metadata.author", problem: .unknownKey).description == "warning: metadata.author: unknown key (kept, not used)")
    }
}
