import Foundation
import Testing

/// `--dispatch` as people write it: `--dispatch 's.num()'` runs the action `num` and prints
/// `s.num()`, never `s.num()()` or an unknown action "num()".
@Suite("--dispatch call syntax", .tags(.integration))
struct DispatchSyntaxTests {
    static let store = """
        const useS = defineStore('s', { state: () => ({ n: 1 }), actions: {
          num() { return this.n; },
          add(a, b) { this.n += a; return b; },
        } });
        useS();
        """

    @Test func aCallWithParenthesesRunsTheActionWithItsArguments() async throws {
        let file = try StateHubBinary.script(Self.store, named: "calls.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.num()", "--dispatch", #"s.add(2, "b")"#, "--dispatch", "s.num"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ s.num() = 1\n"), "\(result.stdout)")
        #expect(result.stdout.contains(#"→ s.add(2, "b") = "b""#), "\(result.stdout)")
        #expect(result.stdout.contains("→ s.num() = 3\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("()()"))
    }

    @Test func aMalformedCallIsAnArgumentError() async throws {
        let file = try StateHubBinary.script(Self.store, named: "bad-calls.js")
        for (arguments, expected) in [
            (["--dispatch", "s.add(1,"], "write a call as STORE.ACTION(ARG, ...)"),
            (["--dispatch", "s.add(nope)"], "must be JSON values separated by commas"),
            (["--dispatch", "s.add(1)", "[2]"], "in parentheses and again"),
        ] {
            let result = try await StateHubBinary.run(["run", file.path] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    /// `1e400` reads as infinity, which JSON cannot carry (it would reach the page as `null`,
    /// exit 0): a number out of range is an argument error.
    @Test func aNumberOutOfRangeIsAnArgumentError() async throws {
        let file = try StateHubBinary.script(Self.store, named: "range.js")
        for arguments in [["--dispatch", "s.add(1e400)"], ["--dispatch", "s.add", "[1e400]"], ["--dispatch", "s.add", #"[1, {"deep": [-1e400]}]"#]] {
            for json in [false, true] {
                let result = try await StateHubBinary.run(["run", file.path] + arguments + (json ? ["--json"] : []))
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("a number is out of range"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("must be finite"), "\(arguments): \(result.stderr)")
                if json { #expect(result.stdout.contains(#""kind":"usage""#), "\(result.stdout)") }
            }
        }
    }

    /// Spaces around the names are not part of them: `'s.add (2, 3)'` runs action `add`, not
    /// "add ", and `' s.num()'` store `s`, not " s".
    @Test func spacesAroundTheNamesAreTrimmed() async throws {
        let file = try StateHubBinary.script(Self.store, named: "spaces.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.add (2, 3)", "--dispatch", " s.num()", "--dispatch", "s . num ", "--dispatch", "s.add", " [1, 0]"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ s.add(2, 3) = 3\n"), "\(result.stdout)")
        #expect(result.stdout.contains("→ s.num() = 3\n"), "\(result.stdout)")
        #expect(result.stdout.contains("→ s.add(1, 0) = 0\n"), "\(result.stdout)")
        #expect(result.stdout.contains("\"n\": 4"), "\(result.stdout)")
    }
}

/// `--dispatch 'x.greet({name:"x"})'` said only "must be JSON values": arguments are JSON,
/// so each common JavaScript-ism gets its own message and the quoted form to paste.
@Suite("--dispatch: JavaScript written where JSON is wanted", .tags(.integration))
struct DispatchJavaScriptismTests {
    static let store = """
        const useX = defineStore('x', { state: () => ({ n: 0 }), actions: { greet(...args) { return args } } });
        useX();
        """

    @Test(arguments: [
        (["--dispatch", #"x.greet({name:"x"})"#], "object keys need double quotes", #"--dispatch 'x.greet({"name":"x"})'"#),
        (["--dispatch", "x.greet('x')"], "strings take double quotes", #"--dispatch 'x.greet("x")'"#),
        (["--dispatch", "x.greet(1, 2,)"], "JSON allows no comma before ] or } or the closing parenthesis", "--dispatch 'x.greet(1, 2)'"),
        (["--dispatch", "x.greet(undefined)"], "JSON has no undefined", "--dispatch 'x.greet(null)'"),
        (["--dispatch", "x.greet", "[{name:'it\\'s'}]"], "object keys need double quotes ({\"name\": \"x\"}, not {name: \"x\"}); strings take double quotes",
         #"--dispatch x.greet '[{"name":"it'\''s"}]'"#),
    ])
    func eachJavaScriptismIsNamedWithTheJSONToWrite(arguments: [String], reason: String, suggestion: String) async throws {
        let file = try StateHubBinary.script(Self.store, named: "greet.js")
        let result = try await StateHubBinary.run(["run", file.path] + arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("the arguments are JSON, not JavaScript: " + reason), "\(result.stderr)")
        #expect(result.stderr.contains("Write it as: " + suggestion), "\(result.stderr)")
    }

    /// The suggestion is a command that works: pasted, it runs.
    @Test func theSuggestedFormRuns() async throws {
        let file = try StateHubBinary.script(Self.store, named: "greet.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", #"x.greet({name:'Ana', tags:['a',],}, undefined)"#])
        let suggested = try #require(result.stderr.components(separatedBy: "Write it as: --dispatch '").last?.split(separator: "\n").first)
        let call = String(suggested.dropLast())   // the closing quote
        #expect(call == #"x.greet({"name":"Ana", "tags":["a"]}, null)"#)
        let rerun = try await StateHubBinary.run(["run", file.path, "--dispatch", call])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains(#"= [{"name":"Ana","tags":["a"]},null]"#), "\(rerun.stdout)")
    }

    /// Text that is not JSON for other reasons keeps the general message.
    @Test func otherMistakesKeepTheGeneralMessage() async throws {
        let file = try StateHubBinary.script(Self.store, named: "greet.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "x.greet(nope)"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("must be JSON values separated by commas"), "\(result.stderr)")
        #expect(!result.stderr.contains("not JavaScript"), "\(result.stderr)")
    }
}
