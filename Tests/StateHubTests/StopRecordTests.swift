import Foundation
import JSEngine
import StateHubTestSupport
import Testing
import Trace
@testable import StateHub

/// Every kind of stop a page makes reaches the hub: one problem, one
/// `stopped` trace record naming the file and the loop's line, the page's stores resynced; a
/// dispatch whose action (or the `await` loop it left) was stopped fails with the stop, not
/// with "did not answer".
@Suite("Stops reach the hub", .tags(.integration), stopSuiteTimeLimit)
struct StopRecordTests {
    static func page(_ recorder: TraceRecorder) async throws -> (GlobalStateHub, JavaScriptEngine) {
        let hub = GlobalStateHub.forStopTests(trace: recorder)
        let engine = try JavaScriptEngine(configuration: .init(name: "stops", executionTimeLimit: .milliseconds(300)))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime()
        try await engine.execute("""
            const useS = defineStore('s', { state: () => ({ x: 0 }), actions: {
              go() {
                this.x = 1;
                while (true) { this.x++ }
              },
              async wait() {
                this.x = 2;
                while (true) { await null; this.x++ }
              } } });
            useS();
            """, sourceURL: "store.js")
        return (hub, engine)
    }

    static func stoppedRecords(_ recorder: TraceRecorder) -> [JSONValue] {
        recorder.records.filter { $0.type == TraceReplay.stoppedRecordType }.compactMap { try? JSONValue(parsing: $0.message) }
    }

    @Test func scriptsTimersAndMicrotasksAreProblemsAndRecords() async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let (hub, engine) = try await Self.page(recorder)
        await #expect(throws: EngineError.self) {
            try await engine.execute("let n = 0;\nn++;\nwhile (true) { n++ }", sourceURL: "top.js")
        }
        try await engine.execute("setTimeout(() => {\n  let n = 0;\n  while (true) { n++ }\n}, 0);", sourceURL: "timer.js")
        try await engine.waitUntilIdle(timeout: eventWaitDeadline) // the hang guard: the timer's stop makes it idle
        try await engine.execute("function again() {\n  queueMicrotask(again);\n}\nqueueMicrotask(again);", sourceURL: "micro.js")
        let stops = hub.problems.compactMap { problem -> ScriptStop? in if case .scriptStopped(let stop) = problem.kind { stop } else { nil } }
        #expect(stops.map(\.description) == ["top.js:3: stopped after 0.3 s", "timer.js:3: stopped after 0.3 s", "micro.js:2: stopped after 0.3 s"])
        #expect(stops.map(\.kind) == [.script, .timer, .microtask])
        let records = Self.stoppedRecords(recorder)
        #expect(records.map { $0["file"]?.stringValue ?? "" } == ["top.js", "timer.js", "micro.js"])
        #expect(records.map { $0["line"]?.intValue ?? 0 } == [3, 3, 2])
        #expect(records.map { $0["kind"]?.stringValue ?? "" } == ["script", "timer", "microtask"])
        // The page is still usable and mirrored.
        #expect(try await engine.evaluate("1 + 1") == 2)
        #expect(hub.state(of: "s") != nil)
        await engine.close()
    }

    @Test(arguments: [("go", 4, "call"), ("wait", 8, "microtask")])
    func aStoppedActionFailsItsDispatchWithTheStop(action: String, line: Int, kind: String) async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let (hub, engine) = try await Self.page(recorder)
        do {
            try await hub.dispatch(store: "s", action: action)
            Issue.record("\(action) was not stopped")
        } catch let error as StateHubError {
            guard case .stopped("s", action, "stops", let reason) = error else {
                Issue.record("\(action): \(error)")
                return
            }
            #expect(reason.hasPrefix("store.js:\(line): stopped after 0.3 s"), "\(reason)")
        }
        #expect(hub.problems.compactMap { if case .stopped(let action, _) = $0.kind { action } else { nil } } == [action])
        let records = Self.stoppedRecords(recorder)
        #expect(records.map { $0["action"]?.stringValue ?? "" } == [action])
        #expect(records.map { $0["kind"]?.stringValue ?? "" } == [kind])
        // Resynced after the stop: the mirror holds what the page holds.
        try await engine.execute("void 0")
        let engineSide = try await engineState(engine, "s")
        #expect(await mirror(of: hub, "s") { $0 == engineSide })
        await engine.close()
    }

    /// Right after a stopped synchronous action, an `await` loop whose only native calls are
    /// the plugin's flushes is stopped as a microtask, not reported unstoppable: a stop can leave
    /// the runtime's write depth above 0, so the loop's writes would be held and the plugin never
    /// post (no native call to stop at); the recovery after a stop (`StopRecoveryTests`) resets it.
    /// In a child process: should that break, the loop keeps its engine thread.
    @Test func anAwaitLoopRightAfterAStoppedActionIsStopped() async {
        await #expect(processExitsWith: .success) {
            let (hub, _) = try await StopRecordTests.page(TraceRecorder(capacity: 100))
            _ = try? await hub.dispatch(store: "s", action: "go")
            do {
                try await hub.dispatch(store: "s", action: "wait")
            } catch StateHubError.stopped(_, _, _, let reason) where reason.hasPrefix("store.js:8: stopped after 0.3 s") {
                exit(0)
            }
            exit(1)
        }
    }
}
