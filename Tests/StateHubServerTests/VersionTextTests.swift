@testable import StateHubServer
import StyleTokens
import Testing

/// The byte-level fast path for plain versions agrees with the full semver parser on every input
/// (docs/server.md, "Manifest").
@Suite(.tags(.unit)) struct VersionTextTests {
    static let inputs = [
        "1.2.3", "0.0.0", "10.20.30", "1.2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.03", "1..3", ".1.2", "1.2.",
        "", "1.2.3-beta.1", "1.2.3+build", "v1.2.3", "1.2.x", " 1.2.3", "1.2.3 ", "999999999999999999.0.0",
        "9999999999999999999.0.0", "99999999999999999999999.1.1", "0.0.01", "1.0.0-0", "١.٢.٣", "1.2.3\u{0}",
    ]

    @Test(arguments: inputs) func theFastPathAgreesWithTheFullParser(_ text: String) {
        #expect(VersionText.parse(text) == (try? SemanticVersion(parsing: text)), "\(text)")
        if let plain = VersionText.plain(text.utf8) {
            #expect(plain == (try? SemanticVersion(parsing: text)), "\(text)")
        }
    }

    @Test func everyShortDigitAndDotStringAgrees() {
        // Every string of up to 6 characters over "0", "1", "." : the fast path's whole grammar, near its edges.
        var texts = [""]
        for _ in 0..<6 { texts += texts.flatMap { text in ["0", "1", "."].map { text + $0 } } }
        for text in Set(texts) {
            #expect(VersionText.parse(text) == (try? SemanticVersion(parsing: text)), "\(text)")
        }
    }
}
