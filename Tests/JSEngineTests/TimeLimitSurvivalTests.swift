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

    /// The one report of a stop no caller saw: kind, file and line, the same in the error and
    /// in its typed stop, whose message has the one form every stop has.
    static func expectOneReport(_ reported: Recorder<UnhandledError>, file: String, line: Int, kind: ScriptStop.Kind) {
        let stops = reported.values.filter { $0.kind == .timeLimitExceeded }
        guard stops.count == 1, stops[0].error.sourceURL == file, stops[0].error.line == line,
              let stop = stops[0].stop, stop.kind == kind, stop.description == "\(file):\(line): stopped after 0.2 s" else {
            FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
            exit(Check.wrongReport.rawValue)
        }
    }

    @Test func topLevel() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            do {
                try await engine.execute("var a = 1;\na++;\nwhile (true) {}", sourceURL: "top.js")
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                // JavaScriptCore names the last expression before the loop (line 2); the
                // script's text names the loop (line 3).
                guard case .executionTimeLimitExceeded(_, let location, .script) = error, location?.sourceURL == "top.js", location?.line == 3,
                      location?.function == "global code", error.stop?.description == "top.js:3: stopped after 0.2 s" else { exit(Check.wrongStop.rawValue) }
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
            try await engine.execute("function increment() {\n  let n = 0;\n  n++;\n  for (;;) {}\n}", sourceURL: "store.js")
            let action = try await engine.function("increment")
            do {
                _ = try await engine.call(action)
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                // JavaScriptCore names the function's first line; the loop is on line 4.
                guard case .executionTimeLimitExceeded(_, let location, .call) = error, location?.sourceURL == "store.js",
                      location?.function == "increment", location?.line == 4 else { exit(Check.wrongStop.rawValue) }
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
            TimeLimitSurvivalTests.expectOneReport(reported, file: "timer.js", line: 2, kind: .timer)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "timer.js", line: 2, kind: .timer)
        }
    }

    @Test func promiseReaction() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            // The reproduction from issue 11: a runaway `.then`, then a timer calling native code.
            try await engine.execute("setTimeout(() => { console.log('after'); }, 10);\nPromise.resolve().then(function spin() {\n  while (true) {}\n});", sourceURL: "then.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            TimeLimitSurvivalTests.expectOneReport(reported, file: "then.js", line: 3, kind: .microtask)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "then.js", line: 3, kind: .microtask)
        }
    }

    @Test func queuedMicrotaskInsideATimer() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("setTimeout(() => {\n  queueMicrotask(() => { for (;;) {} });\n}, 1);", sourceURL: "micro.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            TimeLimitSurvivalTests.expectOneReport(reported, file: "micro.js", line: 2, kind: .microtask)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
        }
    }

    @Test func awaitLoop() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("(async function poll() {\n  for (let i = 0; ; i++) {\n    await null;\n    if (i > 100) while (true) {}\n  }\n})();", sourceURL: "await.js")
            // Line 4: where the async function resumed before it ran away.
            TimeLimitSurvivalTests.expectOneReport(reported, file: "await.js", line: 4, kind: .microtask)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            TimeLimitSurvivalTests.expectOneReport(reported, file: "await.js", line: 4, kind: .microtask)
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

/// Every stop reaches `PageTransport.onStop` once, typed (kind, file, line of the loop, limit),
/// with the one message form `FILE:LINE: stopped after N s` (issue 12 item 1).
@Suite("Time limit: every stop is reported once, typed")
struct StopReportTests {
    @Test func eachKindIsReportedOnceWithTheLoopsLine() async {
        await #expect(processExitsWith: .success) {
            let stops = Recorder<ScriptStop>()
            let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200)))
            engine.onStop { stops.append($0) }
            func expectLast(_ count: Int, _ kind: ScriptStop.Kind, _ place: String) {
                guard stops.values.count == count, let last = stops.values.last, last.kind == kind,
                      last.description == "\(place): stopped after 0.2 s" else {
                    FileHandle.standardError.write(Data("stops: \(stops.values)\n".utf8))
                    exit(30)
                }
            }
            _ = try? await engine.execute("let x = 0;\nx++;\nwhile (true) { x++ }", sourceURL: "top.js")
            expectLast(1, .script, "top.js:3")
            _ = try? await engine.execute("function spin() {\n  let a = 1;\n  for (;;) { a++ }\n}\nspin();", sourceURL: "fn.js")
            expectLast(2, .script, "fn.js:3")
            try await engine.execute("setTimeout(() => {\n  let n = 0;\n  while (true) { n++ }\n}, 0);", sourceURL: "timer.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            expectLast(3, .timer, "timer.js:3")
            try await engine.execute("function again() {\n  queueMicrotask(again);\n}\nqueueMicrotask(again);", sourceURL: "micro.js")
            expectLast(4, .microtask, "micro.js:2")
            try await engine.execute("(async function poll() {\n  for (;;) { await null; performance.now(); }\n})();", sourceURL: "await.js")
            guard stops.values.count == 5, stops.values[4].kind == .microtask, stops.values[4].sourceURL == "await.js" else { exit(31) }
            guard try await engine.evaluate("1 + 1") == 2 else { exit(32) }
            exit(0)
        }
    }

    /// A turn the limit cannot stop is reported too, as `unstoppable`, naming the file,
    /// once it has run 1.5 × the limit in CPU time.
    @Test func anUnstoppableTurnIsReportedAsAStop() async {
        await #expect(processExitsWith: .success) {
            let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200)))
            engine.onStop { stop in
                guard stop.kind == .unstoppable, stop.entry == .script, stop.sourceURL == "bare.js", stop.line == nil,
                      stop.after >= .milliseconds(300), stop.description.hasPrefix("bare.js: stopped after ") else {
                    FileHandle.standardError.write(Data("stop: \(stop)\n".utf8))
                    exit(33)
                }
                exit(0)
            }
            try await engine.execute("Promise.resolve().then(function f() {\n  return Promise.resolve().then(f);\n});", sourceURL: "bare.js")
            exit(34)
        }
    }
}
