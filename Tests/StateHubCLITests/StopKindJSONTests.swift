import Foundation
import Testing

/// `error.stop` is there for every stop kind, with the same five fields.
@Suite("--json: error.stop for every stop kind", .tags(.integration))
struct StopKindJSONTests {
    static let store = """
        const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
          inc() { this.n++ },
          spin() { while (true) { this.n++ } },
          timer() { setTimeout(() => { while (true) {} }); return "scheduled" },
          micro() { queueMicrotask(function again() { queueMicrotask(again) }); return "queued" },
          async awaitLoop() {
            for (;;) { await null; performance.now() }
          },
          async spinAwait() { for (;;) { await null } },
        } });
        useS();
        """

    /// (what runs: a dispatch, or nil for a top-level loop; `error.kind`; `stop.kind`; the line, nil when none is known)
    @Test(arguments: [
        (nil, "stopped", "script", 2),
        ("s.spin()", "stopped", "call", 3),
        ("s.timer()", "stopped", "timer", 4),
        ("s.micro()", "stopped", "microtask", 5),
        ("s.awaitLoop()", "stopped", "microtask", 7),
        ("s.spinAwait()", "unresponsive", "unstoppable", nil),
    ] as [(String?, String, String, Int?)])
    func everyStopKindGivesErrorStopWithTheSameFields(dispatch: String?, kind: String, stopKind: String, line: Int?) async throws {
        let source = dispatch == nil ? "let i = 0;\nwhile (true) { i++; }\n" : Self.store
        let file = try StateHubBinary.script(source, named: "stops.js")
        var arguments = ["run", file.path, "--time-limit", "0.5", "--json"]
        if let dispatch { arguments += ["--dispatch", dispatch] }
        let result = try await StateHubBinary.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        let object = try JSONOutputTests.object(result)
        let error = try #require(object["error"] as? [String: Any], "\(result.stdout)")
        #expect(error["kind"] as? String == kind, "\(result.stdout)")
        let stop = try #require(error["stop"] as? [String: Any], "no error.stop: \(result.stdout)")
        #expect(Set(stop.keys) == ["kind", "file", "line", "function", "seconds"], "\(stop)")
        #expect(stop["kind"] as? String == stopKind, "\(stop)")
        if let line {
            #expect(stop["line"] as? Int == line, "\(stop)")
            #expect(stop["file"] as? String == file.path, "\(stop)")
            #expect(stop["seconds"] as? String == "0.5", "\(stop)")
        } else {
            #expect(stop["line"] is NSNull, "\(stop)")
        }
        // A dispatch the stop failed carries the same data.
        if let failed = (object["dispatches"] as? [[String: Any]])?.first(where: { $0["kind"] as? String == "stopped" }) {
            #expect((failed["stop"] as? [String: Any])?["kind"] as? String == stopKind, "\(failed)")
        }
    }

    /// An `await` loop a dispatched action started has no page file of its own (the turn
    /// enters through the plugin, and the held thread's stack cannot be read). The run names
    /// the file that defined the dispatched store, in the printed stop and in
    /// `error.stop.file` (a bundled module by its own path); the line stays unknown.
    @Test(arguments: ["loops.js", "loops.mjs"])
    func anAwaitLoopStartedByADispatchNamesItsStoresFile(name: String) async throws {
        let source = (name.hasSuffix(".mjs") ? "import { defineStore } from 'pinia'\n" : "") + """
            const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
              inc() { this.n++ },
              async spinAwait() { for (;;) { await null } },
            } });
            useS();
            """
        let file = try StateHubBinary.script(source, named: name)
        let result = try await StateHubBinary.run(["run", file.path, "--time-limit", "0.5", "--dispatch", "s.spinAwait()", "--dispatch", "s.inc()", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(file.path): stopped after "), "\(result.stderr)")
        #expect(result.stderr.contains("in dispatch s.spinAwait (the file that defines its store"), "\(result.stderr)")
        let error = try #require(try JSONOutputTests.object(result)["error"] as? [String: Any], "\(result.stdout)")
        #expect(error["kind"] as? String == "unresponsive", "\(error)")
        #expect(error["file"] as? String == file.path, "\(error)")
        let stop = try #require(error["stop"] as? [String: Any], "\(error)")
        #expect(stop["kind"] as? String == "unstoppable", "\(stop)")
        #expect(stop["file"] as? String == file.path, "\(stop)")
        #expect(stop["line"] is NSNull, "\(stop)")
        // The dispatch the loop ended the run in carries the
        // same stop and the file, as cli.md says a dispatch failed by a stop does.
        let dispatches = try #require(try JSONOutputTests.object(result)["dispatches"] as? [[String: Any]], "\(result.stdout)")
        let spun = try #require(dispatches.first, "\(dispatches)")
        #expect(spun["dispatch"] as? String == "s.spinAwait" && spun["kind"] as? String == "unresponsive", "\(spun)")
        #expect(spun["file"] as? String == file.path, "\(spun)")
        let spunStop = try #require(spun["stop"] as? [String: Any], "\(spun)")
        #expect(spunStop["kind"] as? String == "unstoppable" && spunStop["file"] as? String == file.path, "\(spunStop)")
        #expect(dispatches.count == 2 && dispatches[1]["skipped"] as? Bool == true && dispatches[1]["stop"] == nil, "\(dispatches)")
    }
}
