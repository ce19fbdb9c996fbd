import Foundation
import Testing
@testable import StyleTokens

@Suite("theme check (what the CLI prints)", .tags(.integration))
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
            #"error: metadata.version (3:5): "1.2" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. 1.1.0"#,
            "warning: metadata.author (5:5): unknown key (kept, not used)",
            ##"error: colors.accent (9:5): malformed hex colour "#12345G": 'G' is not a hex digit"##,
            "error: fonts.body.size (13:40): font size must be greater than 0, found -17",
            #"error: components.primaryButton.backgroundColor (17:7): unknown colour "primry": not a hex colour and not a name in colors"#,
            "error: components.primaryButton.cornerRadius (19:7): must not be negative, found -4",
            #"error: components.primaryButton.font (20:7): unknown font "headline": not a name in fonts"#,
            "warning: components.cardView.elevation (24:7): unknown key (kept, not used)",
            "error: components.cardView.shadow.opacity (25:37): opacity must lie in 0…1, found 1.5",
            #"error: dark.colors.secondary (29:17): dark override of unknown colour "secondary": not a name in colors"#,
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

    @Test("a missing file is one error, not a crash; exit 2, as every command exits for an unreadable file")
    func missingFile() {
        let report = ThemeCheck.run(example("nope.json"))
        #expect(report.exitCode == 2)
        #expect(!report.schemaChecked)
        #expect(report.issues == [ThemeIssue(path: "$", problem: .unreadableFile("no such file \(example("nope.json").path)"))])
    }

    @Test("undecodable JSON is one error with its position")
    func undecodable() {
        let report = ThemeCheck.run(data: Data(#"{"metadata": [}"#.utf8), fileName: "bad.json")
        #expect(report.lines == [
            "error: metadata[0]: malformed JSON at line 1, column 15: unexpected character '}'",
            "bad.json: 1 error, 0 warnings (the JSON could not be read, so the schema and the values were not checked: fix these and check again)",
        ])
        #expect(!report.schemaChecked)
        #expect(report.issues.map(\.line) == [1] && report.issues.map(\.column) == [15])
    }

    @Test("every structure problem is reported in one pass, each with line and column")
    func everyStructureProblem() {
        let text = """
            {
              "metadata": {"version": "1.0.0" "name": "x"},
              "colors": {"primary": "#000000", "primary": "#111111",},
              "fonts": {"body": {"family": "Inter", "size": 1e999}},
              "components": {"s": "\\udc00"}
            }
            """
        let report = ThemeCheck.run(data: Data(text.utf8), fileName: "hand.json")
        #expect(report.lines == [
            "error: metadata: malformed JSON at line 2, column 35: expected ',' or '}' in object",
            "error: colors.primary: duplicate key at line 3, column 36",
            "error: colors: malformed JSON at line 3, column 57: expected a key in double quotes",
            "error: fonts.body.size: malformed JSON at line 4, column 54: number 1e999 is out of range",
            "error: components.s: malformed JSON at line 5, column 30: unpaired surrogate in \\u escape",
            "hand.json: 5 errors, 0 warnings (the JSON could not be read, so the schema and the values were not checked: fix these and check again)",
        ], "\(report.lines)")
        // The syntax errors carry their place in the fields too (theme check --json gives them).
        #expect(report.issues.map { [$0.line ?? 0, $0.column ?? 0] } == [[2, 35], [3, 36], [3, 57], [4, 54], [5, 30]])
        #expect(!report.schemaChecked)
    }

    /// Missing fields and wrong types were reported one at a time (the contract was
    /// decoded with `Codable`, which stops at the first). Five different schema problems, and
    /// the value problems beside them, come in one pass, each with its path and line:column (a
    /// missing field at the member that lacks it).
    static let fiveSchemaProblems = """
        {
          "metadata": {"description": 7},
          "colors": {"primary": "#000000", "accent": 12},
          "fonts": {"body": {"name": "Inter"}},
          "components": {
            "card": {"cornerRadius": "8px", "shadow": {"color": "primary", "opacity": 2, "radius": "4"}},
            "button": {"backgroundColor": "primry", "font": "body"}
          },
          "dark": ["#fff"]
        }
        """

    @Test("every missing field and wrong type is reported in one pass, with path and line:column")
    func everySchemaProblem() {
        let report = ThemeCheck.run(data: Data(Self.fiveSchemaProblems.utf8), fileName: "schema.json")
        #expect(report.exitCode == 1)
        #expect(report.theme == nil)
        #expect(report.lines == [
            "error: metadata.version (2:3): required field is missing",
            "error: metadata.description (2:16): expected string, found number",
            "error: colors.accent (3:36): expected string, found number",
            "error: fonts.body.size (4:13): required field is missing",
            "error: components.card.cornerRadius (6:14): expected number, found string",
            "error: components.card.shadow.opacity (6:68): opacity must lie in 0…1, found 2",
            "error: components.card.shadow.radius (6:82): expected number, found string",
            #"error: components.button.backgroundColor (7:16): unknown colour "primry": not a hex colour and not a name in colors"#,
            "error: dark (9:3): expected object, found array",
            "schema.json: 9 errors, 0 warnings",
        ], "\(report.lines)")
        #expect(report.issues.map { [$0.line, $0.column] } == [[2, 3], [2, 16], [3, 36], [4, 13], [6, 14], [6, 68], [6, 82], [7, 16], [9, 3]])
    }

    @Test("a document that is not an object is one wrong type; null optional members are fine")
    func wrongRootAndNullMembers() {
        let root = ThemeCheck.run(data: Data("[1]".utf8), fileName: "array.json")
        #expect(root.lines == ["error: $ (1:1): expected object, found array", "array.json: 1 error, 0 warnings"])
        let nulls = ThemeCheck.run(data: Data(#"{"metadata": {"version": "1.0.0", "description": null}, "colors": null, "dark": null}"#.utf8), fileName: "nulls.json")
        #expect(nulls.lines == ["nulls.json: ok, theme 1.0.0, 0 warnings"])
    }

    /// A file past the size cap is refused after reading at most the cap: checked in a child
    /// process, whose peak resident memory is its own (reading 200 MB whole peaked at 432 MB).
    @Test("a file over the size cap is refused without being read whole")
    func oversizeFileIsNotReadWhole() async {
        await #expect(processExitsWith: .success) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString).json")
            try Data("{".utf8).write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 200 << 20) // sparse: no disk used
            try handle.close()
            defer { try? FileManager.default.removeItem(at: url) }
            let before = ThemeCheckTests.peakResidentBytes()
            let report = ThemeCheck.run(url)
            let grown = ThemeCheckTests.peakResidentBytes() - before
            guard report.lines.first == "error: $: the file is \(200 << 20) bytes, more than the \(4 << 20) a theme may have" else {
                FileHandle.standardError.write(Data("\(report.lines)\n".utf8))
                exit(10)
            }
            guard grown < 64 << 20 else {
                FileHandle.standardError.write(Data("peak grew by \(grown) bytes\n".utf8))
                exit(11)
            }
        }
    }

    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024 // kilobytes on Linux
    }
}
