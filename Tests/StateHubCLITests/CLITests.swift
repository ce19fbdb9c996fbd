import Foundation
import StateHubTestSupport
import Testing

/// The `statehub` binary, run as users run it: arguments in, output and exit status out.
struct StateHubBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// From the child's start to its exit, without the wait for a free place (see
        /// `ChildProcessLimit`): what a test that times the command measures.
        var elapsed: Duration
    }

    /// The binary built beside the test bundle.
    static var url: URL? { StatehubExecutable.url }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Async so that a test waiting for the child holds no thread of the cooperative pool: on a
    /// 2-core machine two synchronous waits would starve every other test's tasks (the timing-
    /// sensitive ones failed in full runs only).
    static func run(_ arguments: [String], binary: URL? = nil, in directory: URL = packageRoot) async throws -> Result {
        let process = Process()
        guard let executable = binary ?? url else { throw MissingBinary(runner: CommandLine.arguments[0]) }
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // Both streams go to files, not pipes: reading one pipe to its end while the child fills
        // the other (64 KB) deadlocks both, which a ThreadSanitizer run (reports on stderr) hit.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let elapsed = try await ChildProcessLimit.shared.run {
            let clock = ContinuousClock()
            let started = clock.now
            try await process.runUntilExit()
            return clock.now - started
        }
        try? out.close()
        try? err.close()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self), elapsed: elapsed)
    }

    static func script(_ source: String, named name: String = "script.js") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

struct MissingBinary: Error, CustomStringConvertible {
    var runner: String
    var description: String { "statehub binary not found beside \(runner)" }
}

@Suite("statehub eval", .tags(.integration))
struct EvalCommandTests {
    @Test func runsScriptsInOrderWithTimersAndTheStoreRuntime() async throws {
        // Each file loads as a turn of its own (docs/cli.md), so the timer is set by the last.
        let first = try StateHubBinary.script("globalThis.order = ['first'];")
        let second = try StateHubBinary.script("""
            order.push('second');
            setTimeout(() => console.log('timer', order.join()), 20);
            const useS = defineStore('s', { state: () => ({ n: 1 }) });
            console.log('store', useS(createPinia()).n, {a: [1]});
            window.f = function () {};
            """, named: "second.js")
        let result = try await StateHubBinary.run(["eval", first.path, second.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "store 1 {\"a\":[1]}\ntimer first,second\n")
    }

    @Test func uncaughtExceptionExitsOneWithLocationAndStack() async throws {
        let file = try StateHubBinary.script("let a = 1;\nfunction f() { null.x; }\nf();\n", named: "boom.js")
        let result = try await StateHubBinary.run(["eval", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(file.path):2:"), "\(result.stderr)")
        #expect(result.stderr.contains("TypeError"))
        #expect(result.stderr.contains("at f@\(file.path):2"))
    }

    @Test func unhandledRejectionExitsOne() async throws {
        let file = try StateHubBinary.script("Promise.resolve().then(() => { throw new Error('in then'); });", named: "reject.js")
        let result = try await StateHubBinary.run(["eval", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unhandled promise rejection: in then"), "\(result.stderr)")
        #expect(result.stderr.contains("reject.js:1:"))
    }

    @Test func missingFileExitsTwoWithOneLine() async throws {
        let result = try await StateHubBinary.run(["eval", "/nonexistent/file.js"])
        #expect(result.status == 2)
        #expect(result.stderr == "statehub: cannot read /nonexistent/file.js: no such file\n")
    }

    @Test func aCopiedBinaryRunsWithNothingBesideIt() async throws {
        let binary = try #require(StateHubBinary.url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("statehub")
        try FileManager.default.copyItem(at: binary, to: copy)
        // eval gets the page run gets: runtime, sync plugin, page shim, bridge client.
        let script = try StateHubBinary.script("console.log(typeof defineStore, typeof StateHubSync, typeof document, typeof invokeNative)")
        let result = try await StateHubBinary.run(["eval", script.path], binary: copy, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "function object object function\n")
    }
}

@Suite("statehub run and trace", .tags(.integration))
struct RunCommandTests {
    @Test func runsTheExamplesAndPrintsTheMirrors() async throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-\(UUID().uuidString).ndjson")
        let result = try await StateHubBinary.run([
            "run", "js/examples/user.js", "js/examples/cart.js", "js/examples/micro-app.js",
            "--dispatch", "user.login", #"["ada"]"#,
            "--dispatch", "cart.add", #"[{"id":"p1","name":"Pen","price":1.5,"qty":2}]"#,
            "--dispatch", "cart.checkout",
            "--trace", trace.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"→ cart.checkout() = {"items":[{"id":"p1","name":"Pen","price":1.5,"qty":2}],"count":2,"total":3}"#))
        #expect(result.stdout.contains("cart = {\n  \"items\": []\n}"))
        // The cart's getters reach the hub and are printed beside its state.
        #expect(result.stdout.contains("cart getters = {\n  \"count\": 0,\n  \"total\": 0\n}"), "\(result.stdout)")
        #expect(result.stdout.contains("\"loggedIn\": true"))
        // The micro-app talked to the headless shell through the capability bridge.
        #expect(result.stdout.contains("shell = {"))
        #expect(result.stdout.contains("\"message\": \"Hello u-42\""))
        #expect(result.stdout.contains("\"state\": \"finished\""))
        let traceText = try String(contentsOf: trace, encoding: .utf8)
        #expect(traceText.contains("\"channel\":\"bridge\""))
        #expect(!traceText.contains("demo-token")) // redacted

        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(show.status == 0)
        #expect(show.stdout.contains("dispatch cart.add("))
        #expect(show.stdout.contains("in cart.add"))
        #expect(show.stdout.contains("cart.items[0…]: [] → [{"), "\(show.stdout)")
        #expect(show.stdout.contains("user.loggedIn: false → true"), "\(show.stdout)")
        let replay = try await StateHubBinary.run(["trace", "replay", trace.path, "--until", "1"])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("state at step 1:"))
        #expect(replay.stdout.contains("\"loggedIn\": false"))
        let outOfRange = try await StateHubBinary.run(["trace", "replay", trace.path, "--until", "9999"])
        #expect(outOfRange.status == 2)
    }

    /// `trace show` marks a change the hub refused instead of printing it as if it had happened;
    /// a trace line with `"step": 1.5` is named for its step, not as "not valid JSON"; a huge
    /// line is not read whole.
    @Test func traceShowMarksRefusedChangesAndNamesBadLines() async throws {
        func record(_ step: Int, _ type: String, seq: Int, _ payload: String) -> String {
            let message = #"{"v":1,"storeId":"s","messageId":"w\#(step)","seq":\#(seq),"type":"\#(type)","payload":\#(payload)}"#
            let line: [String: Any] = ["channel": "nativeBridge", "direction": "web_to_native", "engine": "main", "store": "s", "type": type,
                                       "seq": seq, "size": message.utf8.count, "step": step, "time": step * 1000, "message": message]
            let data = (try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        let lines = [
            record(0, "sync_state", seq: 1, #"{"state":{"n":1,"list":"not an array"},"reason":"created"}"#),
            record(1, "apply_mutation", seq: 2, #"{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":2},{"op":"splice","path":["list"],"index":0,"deleteCount":0,"items":[1]}]}]}"#),
            record(2, "apply_mutation", seq: 3, #"{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":3}]}]}"#),
        ]
        let file = try StateHubBinary.script(lines.joined(separator: "\n") + "\n", named: "refused.ndjson")
        let show = try await StateHubBinary.run(["trace", "show", file.path])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("refused by the hub:"), "\(show.stdout)")
        #expect(show.stdout.contains("refused: s.n: 1 → 2"), "\(show.stdout)")
        // The refused set did not happen: the next change starts from 1.
        #expect(show.stdout.contains("s.n: 1 → 3"), "\(show.stdout)")

        let fraction = try StateHubBinary.script(lines[0].replacingOccurrences(of: #""step":0"#, with: #""step":1.5"#) + "\n" + lines[1] + "\n", named: "fraction.ndjson")
        let bad = try await StateHubBinary.run(["trace", "show", fraction.path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(#"trace line 1 field "step" has the wrong type (expected integer, found 1.5)"#), "\(bad.stderr)")

        let huge = try StateHubBinary.script(lines[0] + "\n" + record(1, "apply_mutation", seq: 2, #"{"mutations":[],"pad":""# + String(repeating: "x", count: 2 << 20) + #""}"#) + "\n", named: "huge.ndjson")
        let long = try await StateHubBinary.run(["trace", "show", huge.path, "--max-line-bytes", "1048576"])
        #expect(long.status == 2)
        #expect(long.stderr.contains("trace line 2 is longer than 1048576 bytes, the longest line read (raise it with --max-line-bytes)"), "\(long.stderr)")
        #expect(try await StateHubBinary.run(["trace", "show", huge.path]).status == 0)
    }

    @Test func failingDispatchExitsOneWithTheTypedErrorAndStack() async throws {
        let result = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.checkout", "--dispatch", "cart.nope"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cart.checkout threw Error: cart is empty"), "\(result.stderr)")
        #expect(result.stderr.contains("cart.js:"))
        #expect(result.stderr.contains("store \"cart\" has no action \"nope\""))
    }

    @Test func malformedArgumentsExitTwo() async throws {
        let badJSON = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", "[oops"])
        #expect(badJSON.status == 2)
        #expect(badJSON.stderr.contains("must be a JSON array"))
        let badTarget = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cartadd"])
        #expect(badTarget.status == 2)
        let badTrace = try await StateHubBinary.run(["trace", "show", "/nonexistent.ndjson"])
        #expect(badTrace.status == 2)
    }
}

@Suite("statehub theme", .tags(.integration))
struct ThemeCommandTests {
    @Test func checkAndCSS() async throws {
        let good = try await StateHubBinary.run(["theme", "check", "examples/themes/standard.json"])
        #expect(good.status == 0)
        let bad = try await StateHubBinary.run(["theme", "check", "examples/themes/broken.json"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("error: components.primaryButton.backgroundColor"))
        let css = try await StateHubBinary.run(["theme", "css", "examples/themes/standard.json"])
        #expect(css.status == 0)
        #expect(css.stdout.contains("--primary-button-corner-radius: 12px;"))
    }

    /// Five kinds of schema problems (a missing field, wrong scalar types, a wrong
    /// container, a required field of the wrong type) and the value problems beside them, all
    /// in one run, in text and in `--json`, each with path and line:column.
    @Test func checkReportsEverySchemaProblemInOnePass() async throws {
        let file = try StateHubBinary.script("""
            {
              "metadata": {"version": 1},
              "colors": {"primary": "#000000", "accent": true},
              "fonts": {"body": {"size": 16}},
              "components": {"card": {"textColor": "primary", "cornerRadius": "8px", "shadow": {"color": "primary", "radius": -1}}},
              "dark": {"colors": []}
            }
            """, named: "schema.json")
        let text = try await StateHubBinary.run(["theme", "check", file.path])
        #expect(text.status == 1)
        #expect(text.stdout.split(separator: "\n").map(String.init) == [
            "error: metadata.version (2:16): expected string, found number",
            "error: colors.accent (3:36): expected string, found boolean",
            "error: fonts.body.name (4:13): required field is missing",
            "error: components.card.cornerRadius (5:51): expected number, found string",
            "error: components.card.shadow.opacity (5:74): required field is missing",
            "error: components.card.shadow.radius (5:105): must not be negative, found -1",
            "error: dark.colors (6:12): expected object, found array",
            "schema.json: 7 errors, 0 warnings",
        ], "\(text.stdout)")
        let json = try await StateHubBinary.run(["theme", "check", "--json", file.path])
        #expect(json.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let issues = report?["issues"] as? [[String: Any]] ?? []
        #expect(issues.map { "\($0["path"] ?? "") \($0["line"] ?? ""):\($0["column"] ?? "")" } == [
            "metadata.version 2:16", "colors.accent 3:36", "fonts.body.name 4:13", "components.card.cornerRadius 5:51",
            "components.card.shadow.opacity 5:74", "components.card.shadow.radius 5:105", "dark.colors 6:12",
        ], "\(json.stdout)")
        #expect(issues.first?["message"] as? String == "expected string, found number")
        #expect(report?["ok"] as? Bool == false)
    }
}
