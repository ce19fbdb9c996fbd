import Foundation
import Testing

/// Exit codes tell the truth: a run whose hub recorded problems
/// fails; a store the hub refused is not called "defined but not created"; a replay that
/// cannot apply a record fails naming it.
@Suite("exit codes", .tags(.integration))
struct ExitCodeTests {
    /// A state nested past the depth cap: the plugin sends `null` there and reports
    /// `state_too_deep`, the hub records the problem, and the run fails although every
    /// dispatch answered (it exited 0 with "ok": true before).
    static let deepStore = """
        function deep(n) { const o = {}; let cur = o; for (let i = 0; i < n; i++) { cur.a = {}; cur = cur.a; } return o; }
        const useD = defineStore('d', { state: () => ({ v: deep(600) }), actions: { touch() { this.x = 1; } } });
        useD();
        """

    @Test func aProblemTheHubRecordedFailsTheRun() async throws {
        let file = try StateHubBinary.script(Self.deepStore, named: "deep.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "d.touch"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("hub: page main, store d:"), "\(result.stderr)")

        let json = try await StateHubBinary.run(["run", file.path, "--dispatch", "d.touch", "--json"])
        #expect(json.status == 1)
        // The object nests 600 levels: past what JSONSerialization reads, so look at its text.
        #expect(json.stdout.hasPrefix(#"{"ok":false,"error":{"kind":"problems""#), "\(json.stdout.prefix(300))")
        #expect(json.stdout.split(separator: "\n").count == 1)
    }

    /// A store whose messages never reach the hub (here the page drops them itself): named as
    /// such, not "defined but not created", and the run fails.
    @Test func aStoreTheHubNeverMirroredFailsTheRunAndIsNotCalledNotCreated() async throws {
        let file = try StateHubBinary.script("""
            const real = window.webkit.messageHandlers.nativeBridge.postMessage;
            window.webkit.messageHandlers.nativeBridge.postMessage = function (m) { if (String(m).indexOf('"hidden"') < 0) return real.call(this, m); };
            const useHidden = defineStore('hidden', { state: () => ({ n: 1 }), actions: { go() { this.n++; } } });
            useHidden();
            """, named: "hidden.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "hidden.go"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("defined but not created"), "\(result.stderr)")
        #expect(result.stderr.contains("store \"hidden\" was created in the page, but the hub has no mirror of it"), "\(result.stderr)")
        #expect(result.stderr.contains("✗ store hidden was created in the page but never reached the mirror"), "\(result.stderr)")

        let json = try await StateHubBinary.run(["run", file.path, "--json"])
        #expect(json.status == 1)
        let object = try JSONOutputTests.object(json)
        #expect(object["ok"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "notMirrored")
        #expect((object["stores"] as? [String: Any])?["hidden"] == nil)
    }

    @Test func aStoreDefinedButNotCreatedIsStillSaidSo() async throws {
        let file = try StateHubBinary.script("defineStore('later', { state: () => ({}) , actions: { go() {} } });\n", named: "later.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "later.go"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("store \"later\" is defined but not created"), "\(result.stderr)")
    }

    @Test func aMessageTheHubRefusedFailsTheRun() async throws {
        let file = try StateHubBinary.script("""
            const useS = defineStore('s', { state: () => ({ n: 1 }) });
            useS();
            window.webkit.messageHandlers.nativeBridge.postMessage('garbage');
            """, named: "garbage.js")
        let text = try await StateHubBinary.run(["run", file.path])
        #expect(text.status == 1)
        #expect(text.stderr.contains("hub: page main: malformed message"), "\(text.stderr)")
        let json = try await StateHubBinary.run(["run", file.path, "--json"])
        #expect(json.status == 1)
        let object = try JSONOutputTests.object(json)
        #expect(object["ok"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "problems")
        #expect((object["problems"] as? [String])?.count == 1)
    }

    /// A trace whose record cannot be applied (100,000 levels deep): replay prints what it
    /// could, names the step and why, and exits 1; `trace show --json` lists it.
    @Test func aReplayThatCannotApplyARecordFailsNamingIt() async throws {
        let store = try StateHubBinary.script("const useS = defineStore('s', { state: () => ({ n: 1 }), actions: { inc() { this.n++; } } });\nuseS();\n", named: "s.js")
        let trace = store.deletingLastPathComponent().appendingPathComponent("deep.ndjson")
        let run = try await StateHubBinary.run(["run", store.path, "--dispatch", "s.inc", "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let depth = 100_000
        let value = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let message = #"{"v":1,"storeId":"s","messageId":"w9","seq":99,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["x"],"value":"# + value + "}]}]}}"
        let record: [String: Any] = ["channel": "nativeBridge", "direction": "web_to_native", "engine": "main", "message": message,
                                     "seq": 99, "size": message.utf8.count, "step": 50, "store": "s", "time": 999_000_000, "type": "apply_mutation"]
        let line = String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        let handle = try FileHandle(forWritingTo: trace)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
        try handle.close()

        let replay = try await StateHubBinary.run(["trace", "replay", trace.path])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("\"n\": 2"), "\(replay.stdout)")
        #expect(replay.stderr.contains("step 50 (apply_mutation of s) could not be applied"), "\(replay.stderr)")

        let show = try await StateHubBinary.run(["trace", "show", "--json", trace.path])
        let problems = try #require(try JSONOutputTests.object(show)["problems"] as? [[String: Any]])
        #expect(problems.map { $0["step"] as? Int } == [50])
    }
}
