import Foundation
import Testing

/// A stop of any kind in the middle of
/// `run`'s dispatches never silently ends the run. The page goes on where it can (a timer,
/// a microtask loop an action left behind: the later dispatches run and are printed, and the
/// stop is printed as a stop); where it cannot (a turn the limit cannot stop), every later
/// dispatch is listed as skipped, in text and in `--json`.
@Suite("statehub run: stops between dispatches", .tags(.integration))
struct StopsInDispatchesTests {
    static let store = """
        const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
          inc() { this.n++ },
          timer() { setTimeout(() => { while (true) {} }); return "scheduled" },
          async spinAwait() { for (;;) { await null } },
          micro() { queueMicrotask(function again() { queueMicrotask(again) }); return "queued" },
          twoTimers() { for (const name of ["A", "B"]) setTimeout(() => { for (;;) { performance.now() } }); return "two" },
        } });
        useS();
        """

    /// `run ARGUMENTS --json`, which fails (exit 1), and its object.
    static func runJSON(_ arguments: [String]) async throws -> (StateHubBinary.Result, [String: Any]) {
        let result = try await StateHubBinary.run(arguments + ["--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result, try #require(object as? [String: Any], "\(result.stdout)"))
    }

    /// `run ARGUMENTS --json` whose `error` is a stop at `store2.js:LINE`, and its object.
    static func runJSONStopped(_ arguments: [String], line: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (StateHubBinary.Result, [String: Any]) {
        let (json, object) = try await runJSON(arguments)
        let error = try #require(object["error"] as? [String: Any], "\(json.stdout)", sourceLocation: sourceLocation)
        #expect(error["kind"] as? String == "stopped", "\(json.stdout)", sourceLocation: sourceLocation)
        #expect(error["line"] as? Int == line, "\(json.stdout)", sourceLocation: sourceLocation)
        #expect((error["file"] as? String)?.hasSuffix("store2.js") == true, "\(json.stdout)", sourceLocation: sourceLocation)
        return (json, object)
    }

    @Test func aStoppedTimerLetsTheLaterDispatchesRun() async throws {
        let file = try StateHubBinary.script(Self.store, named: "store2.js")
        let arguments = ["run", file.path, "--time-limit", "0.5", "--dispatch", "s.timer()", "--dispatch", "s.inc()", "--dispatch", "s.inc()"]
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("→ s.timer() = \"scheduled\""), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "→ s.inc() = undefined").count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("\"n\": 2"), "\(result.stdout)")
        #expect(!result.stdout.contains("shell = {"), "a store-only page leaves the shell alone: \(result.stdout)")
        #expect(result.stderr.contains("store2.js:3: stopped after 0.5 s (a timer callback"), "\(result.stderr)")

        let (json, object) = try await Self.runJSONStopped(arguments, line: 3)
        let dispatches = try #require(object["dispatches"] as? [[String: Any]], "\(json.stdout)")
        #expect(dispatches.map { $0["dispatch"] as? String } == ["s.timer", "s.inc", "s.inc"], "\(json.stdout)")
        #expect(dispatches.allSatisfy { $0["ok"] as? Bool == true }, "\(json.stdout)")
        #expect((object["stores"] as? [String: Any]).flatMap { $0["s"] as? [String: Any] }?["n"] as? Int == 2, "\(json.stdout)")
    }

    /// Two timers stopped one after the other: both stops are printed (the second was read
    /// and cleared between the two hops that read and then cleared the engine's reports).
    @Test func everyStoppedTimerIsPrinted() async throws {
        let file = try StateHubBinary.script(Self.store, named: "store2.js")
        let result = try await StateHubBinary.run(["run", file.path, "--time-limit", "0.3", "--dispatch", "s.twoTimers()", "--dispatch", "s.inc()"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "store2.js:6: stopped after 0.3 s (a timer callback").count == 3, "\(result.stderr)")
    }

    /// A timer a file sets may be stopped while the files still load or only after: either
    /// way the timers after it fire, the dispatches run, and the stop is printed (it ended
    /// the run, and skipped the dispatches, when it came due during loading).
    @Test func aTimerStoppedWhileTheFilesLoadLetsTheRunGoOn() async throws {
        let store = try StateHubBinary.script(Self.store, named: "store2.js")
        let timers = try StateHubBinary.script("""
            setTimeout(() => { console.log("t1"); for (;;) {} }, 0);
            setTimeout(() => console.log("t2 alive"), 1);
            """, named: "timers.js")
        let arguments = ["run", store.path, timers.path, "--time-limit", "0.3", "--dispatch", "s.inc()"]
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("t2 alive"), "\(result.stdout)")
        #expect(result.stdout.contains("→ s.inc() = undefined"), "\(result.stdout)")
        #expect(result.stderr.contains("timers.js:1: stopped after 0.3 s (a timer callback"), "\(result.stderr)")
        #expect(!result.stderr.contains("skipped"), "\(result.stderr)")

        let (json, object) = try await Self.runJSON(arguments)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "stopped", "\(json.stdout)")
        let dispatches = try #require(object["dispatches"] as? [[String: Any]], "\(json.stdout)")
        #expect(dispatches.map { $0["ok"] as? Bool } == [true], "\(json.stdout)")
    }

    /// An await loop holds the page's thread: nothing after it can run, so each later
    /// dispatch is listed as skipped with the reason, not dropped.
    @Test func anAwaitLoopListsTheLaterDispatchesAsSkipped() async throws {
        let file = try StateHubBinary.script(Self.store, named: "store2.js")
        let arguments = ["run", file.path, "--time-limit", "0.5", "--dispatch", "s.spinAwait()", "--dispatch", "s.inc()", "--dispatch", "s.inc(2)"]
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("one turn of the page ran past the time limit"), "\(result.stderr)")
        #expect(result.stderr.contains("⤼ s.inc() skipped: the run ended before it (unresponsive)"), "\(result.stderr)")
        #expect(result.stderr.contains("⤼ s.inc(2) skipped: the run ended before it (unresponsive)"), "\(result.stderr)")

        let (json, object) = try await Self.runJSON(arguments)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "unresponsive", "\(json.stdout)")
        let dispatches = try #require(object["dispatches"] as? [[String: Any]], "\(json.stdout)")
        // All three are listed, none ok; the two after the loop never ran.
        #expect(dispatches.map { $0["dispatch"] as? String } == ["s.spinAwait", "s.inc", "s.inc"], "\(json.stdout)")
        #expect(dispatches.allSatisfy { $0["ok"] as? Bool == false }, "\(json.stdout)")
        let skipped = dispatches.filter { $0["skipped"] as? Bool == true }
        #expect(skipped.count == 2, "\(json.stdout)")
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("one turn of the page ran past the time limit") == true }, "\(json.stdout)")
    }

    /// The action returns; the microtask loop it queued is stopped afterwards. The stop line
    /// itself is printed (not only the hub's problem) and `--json`'s error is a stop.
    @Test func aMicrotaskLoopLeftByAnActionIsPrintedAsAStop() async throws {
        let file = try StateHubBinary.script(Self.store, named: "store2.js")
        let arguments = ["run", file.path, "--time-limit", "0.5", "--dispatch", "s.micro()", "--dispatch", "s.inc()"]
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("→ s.micro() = \"queued\""), "\(result.stdout)")
        #expect(result.stdout.contains("→ s.inc() = undefined"), "\(result.stdout)")
        #expect(result.stderr.contains("store2.js:5: stopped after 0.5 s"), "\(result.stderr)")
        #expect(result.stderr.contains("s.micro had returned"), "\(result.stderr)")

        _ = try await Self.runJSONStopped(arguments, line: 5)
    }

    /// A file that throws ends the run before any dispatch: each is listed as skipped.
    @Test func aFileThatThrowsListsEveryDispatchAsSkipped() async throws {
        let file = try StateHubBinary.script(Self.store + "\nthrow new Error('boom')\n", named: "throws.js")
        let arguments = ["run", file.path, "--dispatch", "s.inc()", "--dispatch", "s.inc(2)"]
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Error: boom"), "\(result.stderr)")
        #expect(result.stderr.contains("⤼ s.inc() skipped: the run ended before it (exception)"), "\(result.stderr)")
        #expect(result.stderr.contains("⤼ s.inc(2) skipped: the run ended before it (exception)"), "\(result.stderr)")

        let (json, object) = try await Self.runJSON(arguments)
        let dispatches = try #require(object["dispatches"] as? [[String: Any]], "\(json.stdout)")
        #expect(dispatches.count == 2, "\(json.stdout)")
        #expect(dispatches.allSatisfy { $0["skipped"] as? Bool == true && ($0["reason"] as? String)?.contains("Error: boom") == true }, "\(json.stdout)")
    }
}
