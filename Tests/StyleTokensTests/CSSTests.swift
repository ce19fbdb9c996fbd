import Foundation
import Testing
@testable import StyleTokens

@Suite("CSS custom properties", .tags(.unit))
struct CSSTests {
    @Test("a small theme produces exactly this stylesheet, dark block included")
    func exactStylesheet() throws {
        let theme = try ThemeLoader.load(ThemeFixtures.data(ThemeFixtures.smallJSON))
        let expected = """
        /* statehub-theme 2.0.1 */
        :root {
          --color-primary: #007aff;
          --color-surface: #ffffff;
          --color-shadow-tint: #00000080;
          --font-body-family: "Helvetica Neue";
          --font-body-size: 17px;
          --primary-button-background-color: #007aff;
          --primary-button-text-color: #ffffff;
          --primary-button-corner-radius: 12px;
          --primary-button-font-family: "Helvetica Neue";
          --primary-button-font-size: 17px;
          --card-view-background-color: #ffffff;
          --card-view-corner-radius: 16.5px;
          --card-view-shadow-color: #00000080;
          --card-view-shadow-opacity: 0.25;
          --card-view-shadow-radius: 8px;
          --card-view-shadow-x: 0px;
          --card-view-shadow-y: 4px;
        }

        @media (prefers-color-scheme: dark) {
          :root {
            --color-primary: #0a84ff;
            --color-surface: #1c1c1e;
            --primary-button-background-color: #0a84ff;
            --card-view-background-color: #1c1c1e;
          }
        }

        """
        #expect(ThemeCSS.stylesheet(for: theme) == expected)
    }

    @Test("no dark overrides, no media block")
    func noDarkBlock() throws {
        let theme = try ThemeLoader.load(ThemeFixtures.data(ThemeFixtures.theme(version: "1.0.0")))
        #expect(ThemeCSS.stylesheet(for: theme) == """
        /* statehub-theme 1.0.0 */
        :root {
          --color-primary: #007aff;
          --button-background-color: #007aff;
        }

        """)
    }

    @Test("camelCase names become kebab-case", arguments: [
        ("primary", "primary"), ("primaryButton", "primary-button"), ("textPrimary", "text-primary"),
        ("URLField", "url-field"), ("heading2Large", "heading2-large"), ("card_view", "card-view"),
        ("h1", "h1"), ("navBarHTMLTitle", "nav-bar-html-title"), ("already-kebab", "already-kebab"),
    ])
    func kebabCase(name: String, expected: String) {
        #expect(CSSPropertyNames.kebabCase(name) == expected)
    }

    @Test("property names follow the documented rule")
    func propertyNames() {
        #expect(CSSPropertyNames.color("textPrimary") == "--color-text-primary")
        #expect(CSSPropertyNames.fontFamily("body") == "--font-body-family")
        #expect(CSSPropertyNames.fontSize("body") == "--font-body-size")
        #expect(CSSPropertyNames.component("primaryButton", .cornerRadius) == "--primary-button-corner-radius")
    }

    @Test("a hostile font name cannot break out of the declaration or the style element")
    func fontNamesAreEscaped() throws {
        let json = #"{"metadata":{"version":"1.0.0"},"fonts":{"body":{"name":"A\"; } body { x: y; } </style>\n","size":1}}}"#
        let css = ThemeCSS.stylesheet(for: try ThemeLoader.load(ThemeFixtures.data(json)))
        #expect(css.contains(#"--font-body-family: "A\"; } body { x: y; } \3c /style\3e \a ";"#))
        #expect(!css.contains("</style>"))
    }

    @Test("numbers are plain: integers without fraction, at most four decimals")
    func numberFormat() {
        #expect(CSSNumber.format(12.0) == "12")
        #expect(CSSNumber.format(0.1) == "0.1")
        #expect(CSSNumber.format(16.5) == "16.5")
        #expect(CSSNumber.format(-0.00001) == "0")
        #expect(CSSNumber.format(-2.25) == "-2.25")
        #expect(CSSNumber.format(1.0 / 3.0) == "0.3333")
        // Never an exponent, even for values the validator refuses.
        #expect(CSSNumber.format(1e308).allSatisfy { $0.isNumber })
        #expect(CSSNumber.format(1e20) == "100000000000000000000")
        #expect(CSSNumber.format(1e-29) == "0")
        #expect(!CSSNumber.isRepresentable(1e-29))
        #expect(!CSSNumber.isRepresentable(1e14))
        #expect(!CSSNumber.isRepresentable(.infinity))
        #expect(CSSNumber.isRepresentable(0))
        #expect(CSSNumber.isRepresentable(0.0001))
        #expect(CSSNumber.isRepresentable(-99_999_999_999_999))
    }

    @Test("a 1e-29 or 1e308 theme number is an error with its path, and never reaches CSS as 0px or 1e+308px")
    func unrepresentableNumbersRefused() throws {
        let text = ThemeFixtures.standardJSON.replacingOccurrences(of: #""cornerRadius": 12.0"#, with: #""cornerRadius": 1e-29"#)
        let issues = ThemeValidator.validate(try ThemeContract(jsonData: ThemeFixtures.data(text)))
        #expect(issues.map(\.description).contains { $0.contains("rounds to 0 in CSS") })
    }
}
