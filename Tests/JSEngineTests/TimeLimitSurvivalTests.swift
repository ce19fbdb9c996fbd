import Foundation
import Testing
@testable import JSEngine

/// After the execution time limit stops a script anywhere, every later call works or throws a
/// typed error, and the stop is reported once with the place it happened
/// (docs/engine.md, "Execution time limit"). Each case runs in a child process (an exit
/// test): after a stop in a microtask, a later call into the same context can abort inside
/// JavaScriptCore unless the engine recovers first, and an abort must fail one test, not end
/// the whole run.
@Suite("Time limit: the engine survives what it stops", .tags(.integration))
struct TimeLimitSurvivalTests {
    /// Exit statuses the child uses to say which check failed.
    enum Check: Int32 { case wrongStop = 10, laterCallFailed = 11, wrongReport = 12, timerDidNotRun = 13 }

    /// A fresh engine with a 200 ms limit whose unhandled errors are recorded.
    static func engine(_ reported: Recorder<UnhandledError>) throws -> JavaScriptEngine {
        try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
    }

    /// What every case checks after its stop: evaluation, a held function, a timer whose
    /// callback calls a native function (`console.log`, a call that can abort after a stop), and a
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
            // A runaway `.then`, then a timer calling native code.
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

    /// Page code that runs while a result is converted to JSON: a `toJSON` and a getter that run
    /// away are stopped, named, and leave no termination pending (a later native call would
    /// abort the process).
    @Test func aStopInsideAConversionIsSettled() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            for (file, head) in [("tojson.js", "toJSON()"), ("getter.js", "get x()")] {
                do {
                    _ = try await engine.evaluate("({ \(head) {\n  for (;;) {}\n} })", sourceURL: file)
                    exit(Check.wrongStop.rawValue)
                } catch let error as EngineError {
                    guard error.stop?.description.hasPrefix("\(file):2: stopped after 0.2 s") == true else { exit(Check.wrongStop.rawValue) }
                }
                try await TimeLimitSurvivalTests.laterCallsWork(engine)
            }
            // A microtask queued by a `toJSON` runs as the conversion's own call into
            // JavaScriptCore returns, outside any entry.
            _ = try? await engine.evaluate("({ toJSON() {\n  Promise.resolve().then(function spin() {\n    for (;;) {}\n  });\n  return 1;\n} })", sourceURL: "queued.js")
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            guard reported.values.count == 1, reported.values.first?.stop?.description.hasPrefix("queued.js:3: stopped after 0.2 s") == true else {
                exit(Check.wrongReport.rawValue)
            }
        }
    }

    /// The same through the paths a message and a binding take: a getter on the path queues a
    /// runaway microtask, which JavaScriptCore drains as the lookup returns. The message and
    /// the binding fail with the stop (which took the getter's value), and later native calls
    /// work; so do they after a timer's thrown value whose `toString` does the same.
    @Test func aStopInsideALookupIsSettled() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("""
                function runaway() { Promise.resolve().then(function spin() { for (;;) {} }); }
                var page = {};
                Object.defineProperty(page, 'receive', { get() { runaway(); return (m) => console.log(m); } });
                Object.defineProperty(globalThis, 'host', { get() { runaway(); return {}; } });
                """, sourceURL: "lookup.js")
            let failures = Recorder<String>()
            engine.send("hello", toFunction: "page.receive", onFailure: { failures.append((($0 as? EngineError)?.stop?.description) ?? "\($0)") })
            guard await failures.wait(forCount: 1) else { exit(Check.wrongStop.rawValue) }
            guard failures.values.first?.hasPrefix("lookup.js:1: stopped after 0.2 s") == true, reported.values.isEmpty else { exit(Check.wrongStop.rawValue) }
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            do {
                try await engine.bind("answer", on: "host") { _ in 42 }
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                guard error.stop?.description.hasPrefix("lookup.js:1: stopped after 0.2 s") == true else { exit(Check.wrongStop.rawValue) }
            }
            guard reported.values.isEmpty else { exit(Check.wrongReport.rawValue) }
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            // A timer's thrown value whose `toString` queues a runaway microtask: read in the
            // timer's turn, so its stop is settled before the next timer calls native code.
            try await engine.execute("setTimeout(() => { throw { toString() { runaway(); return 'thrown'; } }; }, 1)", sourceURL: "thrown.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
        }
    }

    /// A promise rejected from Swift with a coded error: the `code` field is set on the new
    /// `Error` outside any call, so a setter the page put on `Error.prototype` runs there. Its
    /// stop is settled and reported as it happens, the page's rejection handler still runs,
    /// and later native calls work. Outside an entry, the stop's flags were cleared by the next
    /// entry and the termination stayed pending: the child aborted (SIGILL) at the next
    /// native call.
    @Test func aStopInARejectionsErrorSetterIsSettled() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.bindAsync("failing") { _ in throw CodedFailure() }
            try await engine.execute("""
                Object.defineProperty(Error.prototype, 'code', { configurable: true, set(value) {
                  for (;;) {}
                } });
                """, sourceURL: "setter.js")
            let outcome = try await engine.evaluateAndAwait("failing().then(() => 'fulfilled', (e) => { console.log('rejected'); return 'rejected'; })")
            guard outcome == "rejected" else { exit(Check.wrongStop.rawValue) }
            TimeLimitSurvivalTests.expectOneReport(reported, file: "setter.js", line: 2, kind: .call)
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            guard reported.values.count == 1 else { exit(Check.wrongReport.rawValue) }
        }
    }

    /// A stop whose probes keep failing closes the context as its entry returns, and every
    /// protection with it. Ending the entry's own protections through the context held before
    /// the call touched the freed VM: a fresh-clone run crashed so (signal 11 in
    /// `JSValueUnprotect`, a pool page started under a 1 ns limit, whose stop landed in the web
    /// globals' installer). Probes that fail on purpose make the close certain here: a message
    /// sent to the page, a held function called after a stop (the recovery keeps its values
    /// alive), a call whose stop recovery runs away and closes the context before the call's
    /// own body, and a promise settled from Swift whose reaction runs away.
    @Test func aStopThatClosesTheContextEndsNoProtectionThroughIt() async {
        await #expect(processExitsWith: .success) {
            func closedEngine(after setUp: String) async throws -> JavaScriptEngine {
                let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(50)))
                try await engine.execute(setUp)
                return engine
            }
            func expectClosed(_ engine: JavaScriptEngine, _ code: Int32) async {
                do { _ = try await engine.evaluate("1"); exit(code) } catch EngineError.closed { } catch { exit(code) }
            }
            // A message sent to the page: `callRaw(_:this:protecting:kind:)`.
            let sent = try await closedEngine(after: "var page = { receive(message) { while (true) {} } }")
            await sent.perform { $0.context.stopProbesFailForTesting = true }
            let failures = Recorder<String>()
            sent.send("hello", toFunction: "page.receive", onFailure: { failures.append(String(describing: $0)) })
            guard await failures.wait(forCount: 1) else { exit(40) }
            await expectClosed(sent, 41)

            // A call after a stop, whose values the recovery keeps alive (`keepingAlive`).
            let held = try await closedEngine(after: "function spin(n) { while (true) {} }")
            let spin = try await held.function("spin")
            do { try await held.execute("while (true) {}"); exit(42) } catch EngineError.executionTimeLimitExceeded { }
            await held.perform { $0.context.stopProbesFailForTesting = true }
            do { _ = try await held.call(spin, [1]); exit(43) } catch { }
            await expectClosed(held, 44)

            // A call whose stop recovery (run first, in a turn of its own) runs away and closes
            // the context: the call throws `closed` before it touches the context it held.
            let recovered = try await closedEngine(after: "globalThis.__statehubStopRecovery = [{ reset() { while (true) {} }, release() {} }]")
            do { try await recovered.execute("while (true) {}"); exit(48) } catch EngineError.executionTimeLimitExceeded { }
            await recovered.perform { $0.context.stopProbesFailForTesting = true }
            do { try await recovered.execute("1"); exit(49) } catch EngineError.closed { } catch { exit(50) }
            await expectClosed(recovered, 51)

            // A promise settled from Swift (`DeferredPromise.settle`) whose reaction runs away.
            let settled = try await closedEngine(after: "")
            let reacting = Recorder<Bool>()
            try await settled.bindAsync("later") { _ in "answer" }
            try await settled.bind("reacting") { _ in reacting.append(true); return .null }
            await settled.perform { $0.context.stopProbesFailForTesting = true }
            try await settled.execute("later().then(() => { reacting(); while (true) {} })")
            // The reaction runs in the settlement's job on the engine's thread, which its stop
            // ends by closing the context: a call queued after that job finds it closed.
            guard await reacting.wait(forCount: 1, of: "runaway reactions begun") else { exit(45) }
            await expectClosed(settled, 46)
        }
    }
}

/// Every stop reaches `PageTransport.onStop` once, typed (kind, file, line of the loop, limit),
/// with the one message form `FILE:LINE: stopped after N s`.
@Suite("Time limit: every stop is reported once, typed", .tags(.integration))
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

/// A failure a bound async closure throws, with a `code` for the page.
private struct CodedFailure: NativeErrorConvertible {
    var scriptMessage: String { "refused" }
    var scriptCode: String? { "E_REFUSED" }
}
