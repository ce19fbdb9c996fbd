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
            "error: metadata[0]: malformed JSON at line 1, column 15: unexpected character '}'",
            "bad.json: 1 error, 0 warnings",
        ])
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
            "hand.json: 5 errors, 0 warnings",
        ], "\(report.lines)")
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
