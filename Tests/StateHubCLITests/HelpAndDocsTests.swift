import Foundation
import Testing

/// What the docs and `--help` say a command prints is what the binary prints.
@Suite("help and docs match the binary", .tags(.integration))
struct HelpAndDocsTests {
    /// The fenced blocks of `text` after the first line containing `marker`, in order.
    static func blocks(in text: String, after marker: String) throws -> [String] {
        let start = try #require(text.range(of: marker), "no \(marker)")
        var blocks: [String] = []
        var current: [Substring]?
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current { blocks.append(lines.joined(separator: "\n")); current = nil } else { current = [] }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func parse(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary, "\(text)")
    }

    /// docs/style-tokens.md shows a theme, `theme check`'s text output for it and the
    /// `--json` object: each is what the binary prints for that theme.
    @Test func styleTokensDocsShowTheRealThemeCheckOutput() async throws {
        let doc = try String(contentsOf: StateHubBinary.packageRoot.appendingPathComponent("docs/style-tokens.md"), encoding: .utf8)
        let blocks = try Self.blocks(in: doc, after: "`statehub theme check schema.json` prints")
        try #require(blocks.count >= 3)
        let folder = try StateHubBinary.script(blocks[0] + "\n", named: "schema.json").deletingLastPathComponent()
        let text = try await StateHubBinary.run(["theme", "check", "schema.json"], in: folder)
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout == blocks[1] + "\n", "\(text.stdout)")
        let json = try await StateHubBinary.run(["theme", "check", "schema.json", "--json"], in: folder)
        #expect(json.status == 1, "\(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1, "\(json.stdout)")
        #expect(try Self.parse(json.stdout) == Self.parse(blocks[2]), "\(json.stdout)")
    }

    /// `trace show --help` says `--json` prints one object whose `steps` is an array, and so it does.
    @Test func traceShowHelpDescribesTheOneObject() async throws {
        let help = try await StateHubBinary.run(["trace", "show", "--help"])
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Print one JSON object (not one per step)"), "\(help.stdout)")
        #expect(flat.contains("steps (an array, one entry per step"), "\(help.stdout)")
        #expect(!flat.contains("one JSON object per step"), "\(help.stdout)")

        let store = try StateHubBinary.script("const useS = defineStore('s', { state: () => ({ n: 0 }), actions: { inc() { this.n++ } } });\nuseS();\n", named: "s.js")
        let trace = store.deletingLastPathComponent().appendingPathComponent("t.ndjson")
        let run = try await StateHubBinary.run(["run", store.path, "--dispatch", "s.inc", "--dispatch", "s.inc", "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try await StateHubBinary.run(["trace", "show", trace.path, "--json"])
        #expect(shown.stdout.split(separator: "\n").count == 1, "\(shown.stdout)")
        let steps = try #require(try Self.parse(shown.stdout)["steps"] as? [Any], "\(shown.stdout)")
        #expect(steps.count > 1, "\(shown.stdout)")
    }

    /// `run --help` sends readers to docs/cli.md's `run --json`: that section exists and
    /// names the keys the help lists.
    @Test func runHelpPointsAtARealSectionOfTheCLIDocs() async throws {
        let help = try await StateHubBinary.run(["run", "--help"])
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("docs/cli.md, \"run --json\""), "\(help.stdout)")
        let doc = try String(contentsOf: StateHubBinary.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "### `run --json`"), "docs/cli.md has no run --json section")
        let rest = doc[section.upperBound...]
        let body = rest[..<(rest.range(of: "\n### ")?.lowerBound ?? rest.endIndex)]
        for key in ["ok", "error", "dispatches", "stores", "shell", "problems", "diagnostics", "skipped"] {
            #expect(body.contains("\"\(key)\"") || body.contains("`\(key)`"), "docs/cli.md run --json lacks \(key)")
        }
    }
}
