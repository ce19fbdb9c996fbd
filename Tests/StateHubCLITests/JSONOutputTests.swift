import Foundation
import Testing

/// `--json` prints its one object on stdout however the command ends: a
/// script that throws, is stopped, rejects, a dispatch that fails, an argument refused, a
/// file that cannot be read; a script's console output never reaches stdout.
@Suite("--json on failures", .tags(.integration))
struct JSONOutputTests {
    /// stdout as exactly one JSON object on one line.
    static func object(_ result: StateHubBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "stdout is not one line: \(result.stdout)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object, "stdout is not a JSON object: \(result.stdout)", sourceLocation: sourceLocation)
    }

    static let store = """
        const useS = defineStore('s', { state: () => ({ n: 1 }), actions: {
          inc() { console.log('inc ran'); this.n++; },
          bad() {
            throw new Error('nope');
          },
        } });
        useS();
        console.log('loaded');
        console.error('loud');
        """

    @Test func aScriptThatThrowsStillPrintsTheObjectAndConsoleGoesToStderr() async throws {
        let file = try StateHubBinary.script(Self.store + "\nthrow new Error('boom');\n", named: "throws.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.inc", "--json"])
        #expect(result.status == 1)
        let object = try Self.object(result)
        #expect(object["ok"] as? Bool == false)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "exception")
        #expect(error["file"] as? String == file.path)
        #expect(error["line"] as? Int == 10)
        #expect((error["message"] as? String)?.contains("Error: boom") == true)
        // What it would print otherwise: the store as far as it got, the shell, the problems.
        #expect((object["stores"] as? [String: Any])?["s"] as? [String: Int] == ["n": 1])
        #expect(object["shell"] is [String: Any])
        #expect(object["problems"] as? [Any] != nil)
        #expect(result.stderr.contains("loaded") && result.stderr.contains("loud"), "\(result.stderr)")
        #expect(!result.stdout.contains("loaded"))
    }

    @Test func aFailedDispatchIsInTheObjectWithItsFileAndLine() async throws {
        let file = try StateHubBinary.script(Self.store, named: "actions.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.inc", "--dispatch", "s.bad", "--json"])
        #expect(result.status == 1)
        let object = try Self.object(result)
        #expect(object["ok"] as? Bool == false)
        let dispatches = try #require(object["dispatches"] as? [[String: Any]])
        #expect(dispatches.count == 2)
        #expect(dispatches.first?["ok"] as? Bool == true)
        let failed = try #require(dispatches.last)
        #expect(failed["ok"] as? Bool == false)
        #expect(failed["file"] as? String == file.path)
        #expect(failed["line"] as? Int == 4)
        #expect((failed["error"] as? String)?.contains("nope") == true)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "dispatch")
        #expect(error["line"] as? Int == 4)
        #expect(result.stderr.contains("inc ran"))
        #expect((object["stores"] as? [String: Any])?["s"] as? [String: Int] == ["n": 2])
    }

    /// The line of a stop is the engine's to find (harden's tests pin it); here it is the
    /// line the printed message names, whatever it is.
    @Test(arguments: [
        ("let i = 0;\nwhile (true) { i++; }\n", "stopped", nil),
        ("Promise.reject(new Error('nobody'));\n", "unhandledRejection", 1),
        ("setTimeout(() => { throw new Error('late'); }, 1);\n", "uncaughtException", 1),
    ] as [(String, String, Int?)])
    func aStopARejectionOrATimerErrorStillPrintsTheObject(source: String, kind: String, line: Int?) async throws {
        let file = try StateHubBinary.script("console.log('before');\n" + source, named: "ends.js")
        let result = try await StateHubBinary.run(["run", file.path, "--time-limit", "1", "--json"])
        #expect(result.status == 1)
        let object = try Self.object(result)
        #expect(object["ok"] as? Bool == false)
        let error = try #require(object["error"] as? [String: Any], "\(object)")
        #expect(error["kind"] as? String == kind)
        #expect(error["file"] as? String == file.path)
        let printed = try #require(error["line"] as? Int)
        if let line { #expect(printed == line + 1) }
        #expect((error["message"] as? String)?.hasPrefix("\(file.path):\(printed)") == true)
        #expect(result.stderr.contains("before"))
    }

    @Test func aRefusedArgumentOrAMissingFileStillPrintsTheObject() async throws {
        let file = try StateHubBinary.script(Self.store, named: "args.js")
        for arguments in [["run", file.path, "--dispatch", "s.inc", "notjson", "--json"], ["run", "/nonexistent.js", "--json"],
                          ["run", file.path, "--json", "--no-such-option"]] {
            let result = try await StateHubBinary.run(arguments)
            #expect(result.status == 2)
            let object = try Self.object(result)
            #expect(object["ok"] as? Bool == false)
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["kind"] as? String == "usage")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func traceShowJSONIsOneObjectAlsoWhenTheFileCannotBeRead() async throws {
        let missing = try await StateHubBinary.run(["trace", "show", "--json", "/nonexistent.ndjson"])
        #expect(missing.status == 2)
        let object = try Self.object(missing)
        #expect(object["ok"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "unreadable")

        let bad = try StateHubBinary.script("{\"not\": \"a record\"}\n", named: "bad.ndjson")
        let invalid = try await StateHubBinary.run(["trace", "show", "--json", bad.path])
        #expect(invalid.status == 2)
        let error = try #require(try Self.object(invalid)["error"] as? [String: Any])
        #expect(error["line"] as? Int == 1)
        #expect(error["file"] as? String == bad.path)
    }

    @Test func traceShowJSONCarriesTheStepsAndTheCutLineNote() async throws {
        let file = try StateHubBinary.script(Self.store, named: "traced.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("t.ndjson")
        let run = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.inc", "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        var text = try String(contentsOf: trace, encoding: .utf8)
        text += #"{"step": 99, "ti"#   // a killed writer's cut last line
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let result = try await StateHubBinary.run(["trace", "show", "--json", trace.path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.object(result)
        #expect(object["ok"] as? Bool == true)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.contains { $0["action"] as? String == "s.inc" })
        #expect((object["warnings"] as? [[String: Any]])?.first?["kind"] as? String == "cutLine")
        #expect((object["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func themeCheckJSONGivesLineAndColumnForSyntaxErrorsAndSaysTheSchemaWasNotChecked() async throws {
        let file = try StateHubBinary.script("{\n  \"metadata\": {\"version\": \"1.0.0\" \"name\": \"x\"}\n}\n", named: "syntax.json")
        let result = try await StateHubBinary.run(["theme", "check", "--json", file.path])
        #expect(result.status == 1)
        let object = try Self.object(result)
        #expect(object["ok"] as? Bool == false)
        #expect(object["schemaChecked"] as? Bool == false)
        let issue = try #require((object["issues"] as? [[String: Any]])?.first)
        #expect(issue["line"] as? Int == 2)
        #expect(issue["column"] as? Int == 35)

        let text = try await StateHubBinary.run(["theme", "check", file.path])
        #expect(text.stdout.contains("the schema and the values were not checked"), "\(text.stdout)")

        let missing = try await StateHubBinary.run(["theme", "check", "--json", "/nonexistent.json"])
        #expect(missing.status == 2)
        let unreadable = try Self.object(missing)
        #expect(unreadable["ok"] as? Bool == false)
        #expect((unreadable["error"] as? [String: Any])?["kind"] as? String == "unreadable")
    }
}
