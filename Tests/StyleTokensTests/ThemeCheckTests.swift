import Foundation
import Testing
@testable import StyleTokens

@Suite("theme check (what the CLI prints)")
struct ThemeCheckTests {
    private func example(_ name: String) -> URL {
        ThemeFixtures.repositoryRoot.appendingPathComponent("examples/themes/\(name)")
    }

    @Test("the broken example lists every error and warning with its path, exit 1")
    func brokenExample() {
        let report = ThemeCheck.run(example("broken.json"))
        #expect(report.exitCode == 1)
        #expect(report.theme == nil)
        #expect(report.lines == [
            #"error: metadata.version: "1.2" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. 1.1.0"#,
            "warning: metadata.author: unknown key (kept, not used)",
            ##"error: colors.accent: malformed hex colour "#12345G": 'G' is not a hex digit"##,
            "error: fonts.body.size: font size must be greater than 0, found -17",
            #"error: components.primaryButton.backgroundColor: unknown colour "primry": not a hex colour and not a name in colors"#,
            "error: components.primaryButton.cornerRadius: must not be negative, found -4",
            #"error: components.primaryButton.font: unknown font "headline": not a name in fonts"#,
            "error: components.cardView.shadow.opacity: opacity must lie in 0…1, found 1.5",
            "warning: components.cardView.elevation: unknown key (kept, not used)",
            #"error: dark.colors.secondary: dark override of unknown colour "secondary": not a name in colors"#,
            "broken.json: 8 errors, 2 warnings",
        ])
    }

    /// Each example has a version of its own, so both can be published to one server.
    @Test("the standard examples pass, exit 0", arguments: [("standard.json", "1.1.0"), ("standard-dark.json", "1.2.0")])
    func standardExamples(name: String, version: String) {
        let report = ThemeCheck.run(example(name))
        #expect(report.exitCode == 0)
        #expect(report.lines == ["\(name): ok, theme \(version), 0 warnings"])
    }

    @Test("a missing file is one error, not a crash")
    func missingFile() {
        let report = ThemeCheck.run(example("nope.json"))
        #expect(report.exitCode == 1)
        #expect(report.issues == [ThemeIssue(path: "$", problem: .unreadableFile("no such file \(example("nope.json").path)"))])
    }

    @Test("undecodable JSON is one error with its position")
    func undecodable() {
        let report = ThemeCheck.run(data: Data(#"{"metadata": [}"#.utf8), fileName: "bad.json")
        #expect(report.lines == [
            "error: $: malformed JSON at line 1, column 15: unexpected character '}'",
            "bad.json: 1 error, 0 warnings",
        ])
    }
}
