import Foundation
import Testing

/// Every `run` / `eval` ends, exit 1,
/// saying what ran away — whatever shape the runaway work has — and a stopped action's
/// writes reach the mirror. No test here measures a duration: each one only needs the
/// process to end, with the right message.
@Suite("statehub run and eval: runaway work ends the run", .tags(.integration))
struct RunawayRunTests {
    /// Microtask loops in one turn: stopped at a native call, or reported unresponsive when
    /// they call nothing native (then the run ends at twice the time limit).
    @Test(arguments: [
        ("var n = 0;\nPromise.resolve().then(function f() { n++; return Promise.resolve().then(f) });\n", "chain.js"),
        ("(async () => {\n  for (;;) await null;\n})();\n", "await.js"),
        ("queueMicrotask(function again() { queueMicrotask(again) });\n", "requeue.js"),
    ])
    func microtaskLoopsEndTheRunNamingTheFile(source: String, file: String) async throws {
        let script = try StateHubBinary.script(source, named: file)
        for command in ["eval", "run"] {
            let result = try await StateHubBinary.run([command, script.path, "--time-limit", "0.5"])
            #expect(result.status == 1, "\(command) \(file): \(result.stderr)")
            #expect(result.stderr.contains(file), "\(command) \(file): \(result.stderr)")
            #expect(result.stderr.contains("stopped") || result.stderr.contains("time limit"), "\(command) \(file): \(result.stderr)")
        }
    }

    /// Separate short turns that never stop coming: the wall-clock limit ends the run and
    /// says timers were pending.
    @Test(arguments: [
        "setTimeout(function again() { setTimeout(again, 0) }, 0);\n",
        "setInterval(() => {}, 0);\n",
    ])
    func timerChainsEndAtTheWallClockLimit(source: String) async throws {
        let script = try StateHubBinary.script(source, named: "timers.js")
        for command in ["eval", "run"] {
            let result = try await StateHubBinary.run([command, script.path, "--wall-limit", "1"])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("stopped after 1 s (the wall-clock limit"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("timer"), "\(command): \(result.stderr)")
        }
    }

    /// The hostile reproduction: an async action looping on `await`, dispatched from native.
    @Test func anAsyncActionLoopingOnAwaitEndsTheRun() async throws {
        let store = """
            const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
              async aspin() { for (;;) { await null } },
            } });
            useS();
            """
        let script = try StateHubBinary.script(store, named: "aspin.js")
        let result = try await StateHubBinary.run(["run", script.path, "--dispatch", "s.aspin", "--time-limit", "0.5"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("s.aspin"), "\(result.stderr)")
    }

    @Test func wallLimitIsValidated() async throws {
        let script = try StateHubBinary.script("1", named: "one.js")
        for value in ["0", "nan", "1e20", "soon"] {
            let result = try await StateHubBinary.run(["eval", script.path, "--wall-limit", value])
            #expect(result.status == 2, "--wall-limit \(value): \(result.stderr)")
        }
    }

    /// The stop is blamed on the user's file, not on StateHub's own
    /// scripts, and the writes made before the stop reach the mirror (no "mirror differs").
    @Test func aStoppedWritingActionNamesTheUsersFileAndLeavesTheMirrorEqual() async throws {
        let store = """
            const useS = defineStore('s', { state: () => ({ x: 0 }), actions: {
              go() {
                while (true) { this.x++ }
              },
            } });
            useS();
            """
        let script = try StateHubBinary.script(store, named: "writer.js")
        let trace = script.deletingLastPathComponent().appendingPathComponent("writer.ndjson")
        let result = try await StateHubBinary.run(["run", script.path, "--dispatch", "s.go", "--time-limit", "0.5", "--trace", trace.path])
        #expect(result.status == 1, "\(result.stderr)")
        // The trace shows the stop, and replaying it reports no problem the live run did not have.
        let shown = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(shown.stdout.contains("stopped: \(script.path):3: stopped after 0.5 s"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("malformed message"), "\(shown.stdout)")
        // The action's stop names writer.js:3; the plugin's flush, stopped next in the same
        // turn (its backtrace holds only StateHub's frames), must not take the blame.
        #expect(result.stderr.contains("writer.js:3"), "\(result.stderr)")
        #expect(!result.stderr.contains("statehub:"), "\(result.stderr)")
        #expect(!result.stderr.contains("mirror of s differs"), "\(result.stderr)")
        #expect(!result.stdout.contains("\"x\": 0"), "\(result.stdout)")
    }
}
