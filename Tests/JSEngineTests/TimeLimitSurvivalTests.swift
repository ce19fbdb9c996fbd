import Foundation
import Testing
@testable import JSEngine

/// After the execution time limit stops a script anywhere, every later call works or throws a
/// typed error, and the stop is reported once with the place it happened
/// (docs/engine.md, "Execution time limit"). Each case runs in a child process (an exit
/// test): before the fix, the microtask cases aborted inside JavaScriptCore, and an abort
/// must fail one test, not end the whole run.
@Suite("Time limit: the engine survives what it stops")
struct TimeLimitSurvivalTests {
    /// Exit statuses the child uses to say which check failed.
    enum Check: Int32 { case wrongStop = 10, laterCallFailed = 11, wrongReport = 12, timerDidNotRun = 13 }

    /// A fresh engine with a 200 ms limit whose unhandled errors are recorded.
    static func engine(_ reported: Recorder<UnhandledError>) throws -> JavaScriptEngine {
        try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
    }

    /// What every case checks after its stop: evaluation, a held function, a timer whose
    /// callback calls a native function (`console.log`, the call that used to abort), and a
    /// promise awaited from Swift.
    static func laterCallsWork(_ engine: JavaScriptEngine) async throws {
        guard try await engine.evaluate("1 + 1") == 2 else { exit(Check.laterCallFailed.rawValue) }
        let double = try await engine.function("function (x) { console.log('native call'); return x * 2; }")
        guard try await engine.call(double, [21]) == 42 else { exit(Check.laterCallFailed.rawValue) }
        try await engine.execute("var timerRan = false; setTimeout(() => { console.log('timer'); timerRan = true; }, 1)")
        try await engine.waitUntilIdle(timeout: .seconds(10))
        guard try await engine.evaluate("timerRan") == true else { exit(Check.timerDidNotRun.rawValue) }
        guard try await engine.evaluateAndAwait("(async () => { await null; return 'awaited'; })()") == "awaited" else {
            exit(Check.laterCallFailed.rawValue)
        }
    }

    /// The one report of a stop no caller saw: kind, file and line.
    static func expectOneReport(_ reported: Recorder<UnhandledError>, file: String, line: Int) {
        let stops = reported.values.filter { $0.kind == .timeLimitExceeded }
        guard stops.count == 1, stops[0].error.sourceURL == file, stops[0].error.line == line else {
            FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
            exit(Check.wrongReport.rawValue)
        }
    }

    @Test func topLevel() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            do {
                try await engine.execute("var a = 1;\nwhile (true) {}", sourceURL: "top.js")
                exit(Check.wrongStop.rawValue)
            } catch EngineError.executionTimeLimitExceeded(_, let location) {
                // JavaScriptCore names the frame: the script's top level, which starts at line 1.
                guard location?.sourceURL == "top.js", location?.line == 1, location?.function == "global code" else { exit(Check.wrongStop.rawValue) }
            }
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            // The caller was told; nothing is reported a second time.
            guard reported.values.isEmpty else { exit(Check.wrongReport.rawValue) }
        }
    }

    @Test func heldFunctionLikeAnAction() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("function increment() {\n  for (;;) {}\n}", sourceURL: "store.js")
            let action = try await engine.function("increment")
            do {
                _ = try await engine.call(action)
                exit(Check.wrongStop.rawValue)
            } catch EngineError.executionTimeLimitExceeded(_, let location) {
                guard location?.sourceURL == "store.js", location?.function == "increment" else { exit(Check.wrongStop.rawValue) }
            }
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            guard reported.values.isEmpty else { exit(Check.wrongReport.rawValue) }
        }
    }

    @Test func timerCallback() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("setTimeout(function spin() {\n  while (true) {}\n}, 1)", sourceURL: "timer.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            TimeLimitSurvivalTests.expectOneReport(reported, file: "timer.js", line: 1)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "timer.js", line: 1)
        }
    }

    @Test func promiseReaction() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            // The reproduction from issue 11: a runaway `.then`, then a timer calling native code.
            try await engine.execute("setTimeout(() => { console.log('after'); }, 10);\nPromise.resolve().then(function spin() {\n  while (true) {}\n});", sourceURL: "then.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            TimeLimitSurvivalTests.expectOneReport(reported, file: "then.js", line: 2)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "then.js", line: 2)
        }
    }

    @Test func queuedMicrotaskInsideATimer() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("setTimeout(() => {\n  queueMicrotask(() => { for (;;) {} });\n}, 1);", sourceURL: "micro.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            TimeLimitSurvivalTests.expectOneReport(reported, file: "micro.js", line: 2)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
        }
    }

    @Test func awaitLoop() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("(async function poll() {\n  for (let i = 0; ; i++) {\n    await null;\n    if (i > 100) while (true) {}\n  }\n})();", sourceURL: "await.js")
            // Line 4: where the async function resumed before it ran away.
            TimeLimitSurvivalTests.expectOneReport(reported, file: "await.js", line: 4)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "await.js", line: 4)
        }
    }

    @Test func awaitedFromSwift() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            do {
                _ = try await engine.evaluateAndAwait("(async () => { await null; for (;;) {} })()", sourceURL: "awaited.js", timeout: .seconds(5))
                exit(Check.wrongStop.rawValue)
            } catch is EngineError {
                // Stopped (or timed out waiting for a promise the stop left pending): typed either way.
            }
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
        }
    }
}
