import Foundation
@testable import StateHubCLI
import Testing

/// `SourceMaps.rewrite` matches a name only as a whole file token, longest name first: matched
/// as a plain substring, `b.mjs#bundle:` would map a throw on line 10 of `ab.mjs` (with `b.mjs`
/// and `ab.mjs` loaded) through `b.mjs`'s map whenever that map came first: a plausible, wrong
/// line.
@Suite("source-map rewriting matches whole file names", .tags(.integration))
struct SourceMapBoundaryTests {
    /// A map of `lines` generated lines, line N from line N of `source`.
    static func identity(_ source: String, lines: Int) throws -> SourceMap {
        let mappings = "AAAA" + String(repeating: ";AACA", count: lines - 1)
        return try #require(SourceMap(json: #"{"version":3,"sources":["\#(source)"],"names":[],"mappings":"\#(mappings)"}"#))
    }

    @Test func aNameIsNotMatchedInsideALongerOne() throws {
        let maps = SourceMaps()
        // b.mjs's bundle has 2 wrapper lines, the others none: a wrong map gives a wrong line.
        maps.register(try Self.identity("b.mjs", lines: 40), for: "b.mjs#bundle", lineOffset: 2, inputPath: "b.mjs")
        maps.register(try Self.identity("ab.mjs", lines: 40), for: "ab.mjs#bundle", lineOffset: 0, inputPath: "ab.mjs")
        maps.register(try Self.identity("sub/b.mjs", lines: 40), for: "sub/b.mjs#bundle", lineOffset: 0, inputPath: "sub/b.mjs")
        maps.register(try Self.identity("ace.mjs", lines: 40), for: "ace.mjs#bundle", lineOffset: 3, inputPath: "ace.mjs")
        maps.register(try Self.identity("sp ace.mjs", lines: 40), for: "sp ace.mjs#bundle", lineOffset: 0, inputPath: "sp ace.mjs")
        let text = "boom@ab.mjs#bundle:17:1\nx@b.mjs#bundle:17:1\ny@sub/b.mjs#bundle:17:1\nat sp ace.mjs#bundle:17:1 (ace.mjs#bundle:17:1)"
        #expect(maps.rewrite(text) == "boom@ab.mjs:17:1\nx@b.mjs:15:1\ny@sub/b.mjs:17:1\nat sp ace.mjs:17:1 (ace.mjs:14:1)")
    }

    /// Through the binary: `b.mjs`, `ab.mjs` and `sub/b.mjs` loaded, a throw on line 10 of
    /// `ab.mjs`. Five runs: a choice of map that depended on a dictionary's order would differ
    /// per process.
    @Test func aThrowInAbMjsNamesItsOwnLineBesideBMjs() async throws {
        let folder = try StateHubBinary.script("", named: "unused.js").deletingLastPathComponent()
        var b = "import { defineStore } from 'pinia';\nexport const useB = defineStore('b', { state: () => ({ n: 0 }), actions: { x() {} } });\n"
        for line in 3 ... 30 { b += "export const v\(line) = \(line); // b.mjs line \(line)\n" }
        try b.write(to: folder.appendingPathComponent("b.mjs"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try b.replacingOccurrences(of: "'b'", with: "'subb'").replacingOccurrences(of: "useB", with: "useSubB")
            .write(to: folder.appendingPathComponent("sub/b.mjs"), atomically: true, encoding: .utf8)
        let ab = """
            import { defineStore } from 'pinia';
            // 2
            // 3
            // 4
            // 5
            export const useAB = defineStore('ab', { state: () => ({ n: 0 }),
              actions: {
                boom() {
                  // 9
                  throw new Error('ab line 10');
                },
              } });
            useAB();
            """
        try ab.write(to: folder.appendingPathComponent("ab.mjs"), atomically: true, encoding: .utf8)
        for run in 1 ... 5 {
            let result = try await StateHubBinary.run(["run", "b.mjs", "ab.mjs", "sub/b.mjs", "--dispatch", "ab.boom()", "--json"], in: folder)
            #expect(result.status == 1, "run \(run): \(result.stderr.prefix(600))")
            #expect(result.stderr.contains("ab.mjs:10:"), "run \(run): \(result.stderr.prefix(900))")
            let dispatches = try #require(try JSONOutputTests.object(result)["dispatches"] as? [[String: Any]], "\(result.stdout)")
            let stack = try #require(dispatches.first?["stack"] as? String, "\(dispatches)")
            #expect(stack.contains("ab.mjs:10:"), "run \(run): \(stack)")
            // `--json`'s error.details too, not the bundle's line (`ab.mjs#bundle:17:24`).
            let details = try #require((try JSONOutputTests.object(result)["error"] as? [String: Any])?["details"] as? String, "\(result.stdout)")
            #expect(details.contains("ab.mjs:10:"), "run \(run): \(details)")
            for text in [result.stderr, stack, details] {
                #expect(!text.contains("#bundle"), "run \(run): \(text.prefix(900))")
                #expect(!text.contains("bundle wrapper"), "run \(run): \(text.prefix(900))")
            }
        }
    }
}
