import Foundation
@testable import StateHubCLI
import Testing

/// `--dispatch` parsing stays linear in the number of dispatches (swift-argument-parser's
/// handling of a repeated option is quadratic: 2,000 took 15 s before the run began, outside
/// `--wall-limit`), and deep JSON arguments are read, not refused as "must be JSON values
/// separated by commas". No timing here: the work is counted (what the parser is given), and
/// the messages are read.
@Suite("--dispatch: many and deep", .tags(.integration))
struct DispatchScaleTests {
    /// However many `--dispatch` there are, ArgumentParser sees one option with one value; the
    /// values come back in order, with the options and files around them untouched.
    @Test(arguments: [1, 2_000, 20_000])
    func everyDispatchReachesTheParserAsOneOption(count: Int) throws {
        var arguments = ["run", "a.js", "--time-limit", "2"]
        var expected: [String] = []
        for index in 0 ..< count {
            let value = "s.add(\(index))"
            expected.append(value)
            arguments += index % 2 == 0 ? ["--dispatch", value] : ["--dispatch=\(value)"]
            if index == 0 { arguments += ["--trace", "t.ndjson"] }
        }
        arguments += ["--dispatch", "s.add", "[-1]", "later.js", "--json"]
        expected += ["s.add", "[-1]", "later.js"]

        let gathered = DispatchArguments.gather(arguments)
        #expect(gathered == ["run", "a.js", "--time-limit", "2", "--dispatch-list", gathered[5], "--trace", "t.ndjson", "--json"])
        #expect(try DispatchArguments.values(of: gathered[5]) == expected)
    }

    @Test func whatIsNotARunDispatchIsLeftAsItIs() {
        for arguments in [
            ["eval", "a.js", "--dispatch", "s.x"],                  // not `run`
            ["run", "a.js", "--", "--dispatch", "s.x"],             // after `--`
            ["run", "a.js", "--dispatch", "s.x", "--dispatch"],     // a value missing: the parser says so
            ["run", "a.js", "--json"],
        ] {
            #expect(DispatchArguments.gather(arguments) == arguments, "\(arguments)")
        }
    }

    /// A `--dispatch-list` typed by hand would silently drop the user's `--dispatch` (either
    /// order). Only the gatherer writes it: typed, it is refused.
    @Test func aTypedDispatchListIsRefused() async throws {
        let file = try StateHubBinary.script("const useC = defineStore('c', { state: () => ({ n: 0 }), actions: { add(k) { this.n += k } } }); useC();", named: "list.js")
        for arguments in [["--dispatch-list", #"["c.add(1)"]"#, "--dispatch", "c.add(2)"],
                          ["--dispatch", "c.add(2)", "--dispatch-list", #"["c.add(1)"]"#],
                          [#"--dispatch-list=["c.add(1)"]"#],
                          ["--dispatch-list", #"["c.add(1)"]"#]] {
            let result = try await StateHubBinary.run(["run", file.path] + arguments + ["--json"])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--dispatch-list is written by statehub itself from --dispatch"), "\(arguments): \(result.stderr)")
            let error = try #require(try JSONOutputTests.object(result)["error"] as? [String: Any], "\(result.stdout)")
            #expect(error["kind"] as? String == "usage", "\(error)")
        }
    }

    /// The real binary: 2,000 dispatches all run, in order.
    @Test func twoThousandDispatchesRun() async throws {
        let file = try StateHubBinary.script("const useC = defineStore('c', { state: () => ({ n: 0 }), actions: { add(k) { this.n = this.n * 0 + k + 1 } } }); useC();", named: "many.js")
        let dispatches = (0 ..< 2_000).flatMap { ["--dispatch", "c.add(\($0))"] }
        let result = try await StateHubBinary.run(["run", file.path, "--json"] + dispatches)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONOutputTests.object(result)
        #expect((object["dispatches"] as? [Any])?.count == 2_000)
        #expect(((object["stores"] as? [String: Any])?["c"] as? [String: Any])?["n"] as? Int == 2_000, "the last dispatch ran last")
    }

    /// Both ways of writing arguments name the depth, not the commas.
    @Test func deepArgumentsAreRefusedNamingTheDepth() async throws {
        let file = try StateHubBinary.script("const useC = defineStore('c', { state: () => ({ n: 0 }), actions: { add() {} } }); useC();", named: "deep.js")
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        for arguments in [["--dispatch", "c.add(\(deep))"], ["--dispatch", "c.add", "[\(deep)]"]] {
            let result = try await StateHubBinary.run(["run", file.path] + arguments)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("the arguments of --dispatch c.add nest deeper than 512 levels, the most --dispatch reads"), "\(result.stderr)")
            #expect(!result.stderr.contains("separated by commas"), "\(result.stderr)")
        }
        // Just under the cap is read: 510 objects around a number, in the array of arguments.
        let deepest = String(repeating: #"{"a":"#, count: 510) + "1" + String(repeating: "}", count: 510)
        let accepted = try await StateHubBinary.run(["run", file.path, "--dispatch", "c.add(\(deepest))"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}
