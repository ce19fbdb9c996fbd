import Foundation
import JSEngine
import Testing
import Trace
@testable import StateHub

/// A script evaluated with a line map (a bundle and its source map) is reported in its
/// original lines everywhere the engine and the hub build a place: a thrown error and its
/// stack, an action's stop, a timer's stop, the hub's problem and the trace's `stopped` record
/// (an ES module's stops named the bundle's lines there).
@Suite("Line maps: places in the original source", .tags(.engine), stopSuiteTimeLimit)
struct LineMapTests {
    /// The bundle: two wrapper lines (no origin), then the module's lines, shifted by 2.
    static let wrapper = "(() => {\n  // bundled\n"
    static let module = """
        const useM = defineStore('m', {
          state: () => ({ n: 0 }),
          actions: {
            spin() {
              while (true) {
                this.n++;
              }
            },
          },
        });
        globalThis.failNow = () => { throw new Error('failed here') };
        useM();
        globalThis.startTimer = () => setTimeout(() => {
          let i = 0;
          for (;;) {
            i++;
          }
        }, 0);
        """
    static let lineMap = ScriptLineMap { line, column in
        line <= 2 ? nil : .init(sourceURL: "src/module.mjs", line: line - 2, column: column)
    }

    @Test func stopsErrorsProblemsAndTracesNameTheOriginalLines() async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(name: "mapped", executionTimeLimit: .milliseconds(200)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: .tick)
        try await engine.execute(Self.wrapper + Self.module + "\n})();\n", sourceURL: "bundle.js", lineMap: Self.lineMap)

        // An action's stop: the dispatch's error names the module's `while` line (5).
        do {
            try await hub.dispatch(store: "m", action: "spin")
            Issue.record("spin was not stopped")
        } catch StateHubError.stopped(_, _, _, let reason) {
            #expect(reason.hasPrefix("src/module.mjs:5: stopped after 0.2 s"), "\(reason)")
        }
        // A thrown error the engine reports: its place and its stack.
        do {
            try await engine.execute("failNow()", sourceURL: "call.js")
            Issue.record("failNow did not throw")
        } catch let error as JavaScriptError {
            #expect(error.sourceURL == "src/module.mjs" && error.line == 11, "\(error)")
            #expect(error.stack?.contains("src/module.mjs:11:") == true && error.stack?.contains("bundle.js") == false, "\(error.stack ?? "")")
        }
        // A timer's stop, no caller: the hub's problem and the trace's `stopped` record.
        try await engine.execute("startTimer()")
        let problem = await problems(of: hub, "stop of the timer", where: isScriptStop).first
        let stop: ScriptStop? = if case .scriptStopped(let stop)? = problem?.kind { stop } else { nil }
        #expect(stop?.sourceURL == "src/module.mjs" && stop?.line == 15, "\(String(describing: problem))")
        #expect(problem.map { "\($0)".contains("src/module.mjs:15") } == true, "\(String(describing: problem))")
        let stopped = recorder.records.filter { $0.type == "stopped" }
        #expect(!stopped.isEmpty && stopped.allSatisfy { !"\($0.note ?? "") \($0.message)".contains("bundle.js") }, "\(stopped)")
        #expect(stopped.contains { "\($0.note ?? "") \($0.message)".contains("src/module.mjs:15") }, "\(stopped)")
        // Without a map, the same script reports its own lines.
        do {
            try await engine.execute("\n\nthrow new Error('plain')", sourceURL: "plain.js", lineMap: nil)
            Issue.record("plain.js did not throw")
        } catch let error as JavaScriptError {
            #expect(error.sourceURL == "plain.js" && error.line == 3, "\(error)")
        }
        await engine.close()
    }
}
