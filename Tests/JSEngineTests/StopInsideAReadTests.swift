import Foundation
import Testing
@testable import JSEngine

/// Page code the engine runs while it *reads* a value, with no script of its own entered: an
/// error's `name` or `message` getter, a `Symbol.hasInstance` asked whether a value is a
/// promise, a thrown value's `toJSON` or `toString`. The time limit stops a runaway one;
/// the read after it must not run the page's code again before that stop is settled (with
/// the termination pending, JavaScriptCore aborts the process at the next native call), and
/// the stop reaches the caller, typed (docs/engine.md, "Page code outside a call").
///
/// Each case arms its runaway once and has the read after it call `console.log`, the native
/// call that aborts; each runs in a child process (an exit test), so an abort fails one test.
@Suite("Time limit: a stop inside a read is settled before the next read", .tags(.integration))
struct StopInsideAReadTests {
    /// Exit statuses the child uses to say which check failed.
    enum Check: Int32 { case wrongStop = 20, wrongReport = 21, laterCallFailed = 22 }

    /// A getter (on `target`, for `runaway`) that runs away the first time it is read, and one
    /// (for `logging`) that calls `console.log`. The loop is on line 3 of `hooks.js`.
    static func hooks(on target: String, runaway: String, logging: String) -> String {
        """
        var armed = true;
        Object.defineProperty(\(target), '\(runaway)', { configurable: true, get() {
          if (armed) { armed = false; for (;;) {} }
          return 'read';
        } });
        Object.defineProperty(\(target), '\(logging)', { configurable: true, get() { console.log('read after the stop'); return 'logged'; } });
        """
    }

    /// The caller was told of the stop, named at the runaway loop (`hooks.js`, `line`); nothing
    /// else was reported, and later calls (one through a native function) work.
    static func expectStopTold(_ error: EngineError, line: Int = 3, reported: Recorder<UnhandledError>, engine: JavaScriptEngine) async throws {
        guard error.stop?.description == "hooks.js:\(line): stopped after 0.2 s" else {
            FileHandle.standardError.write(Data("error: \(error) stop: \(String(describing: error.stop))\n".utf8))
            exit(Check.wrongStop.rawValue)
        }
        try await TimeLimitSurvivalTests.laterCallsWork(engine)
        guard reported.values.isEmpty else {
            FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
            exit(Check.wrongReport.rawValue)
        }
    }

    /// `checkSyntax` enters no script: the `SyntaxError` it reads is the first page code, and
    /// its `name` getter, then its `column` getter, are two plain reads in a row.
    @Test func checkSyntaxReadingItsErrorsFields() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute(StopInsideAReadTests.hooks(on: "SyntaxError.prototype", runaway: "name", logging: "column"), sourceURL: "hooks.js")
            do {
                try await engine.checkSyntax("let = ;", sourceURL: "bad.js")
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                try await StopInsideAReadTests.expectStopTold(error, reported: reported, engine: engine)
            }
        }
    }

    /// An `Error` a script throws, read field by field after the script's own call returned.
    @Test func aThrownErrorsFields() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("var thrown = new Error('boom');\n" + StopInsideAReadTests.hooks(on: "thrown", runaway: "name", logging: "message"), sourceURL: "hooks.js")
            do {
                try await engine.execute("throw thrown", sourceURL: "throw.js")
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                // The hooks begin on line 2 here: the loop is on line 4.
                try await StopInsideAReadTests.expectStopTold(error, line: 4, reported: reported, engine: engine)
            }
        }
    }

    /// Awaiting a value from Swift asks whether it is a promise (`instanceof Promise`, which
    /// runs a page's `Symbol.hasInstance`), then converts it (its `toJSON`).
    @Test func askingWhetherAValueIsAPromise() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("""
                var armed = true;
                Object.defineProperty(Promise, Symbol.hasInstance, { configurable: true, value(value) {
                  if (armed) { armed = false; for (;;) {} }
                  return Function.prototype[Symbol.hasInstance].call(this, value);
                } });
                """, sourceURL: "hooks.js")
            do {
                _ = try await engine.evaluateAndAwait("({ toJSON() { console.log('converted after the stop'); return 1; } })", sourceURL: "value.js")
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                try await StopInsideAReadTests.expectStopTold(error, reported: reported, engine: engine)
            }
        }
    }

    /// A thrown value that is not an `Error` is read through its `toJSON`, then its `toString`.
    @Test func aThrownValuesConversions() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            do {
                try await engine.execute("""
                    throw {
                      toJSON() {
                        for (;;) {}
                      },
                      toString() { console.log('described after the stop'); return 'thrown'; },
                    };
                    """, sourceURL: "hooks.js")
                exit(Check.wrongStop.rawValue)
            } catch let error as EngineError {
                try await StopInsideAReadTests.expectStopTold(error, reported: reported, engine: engine)
            }
        }
    }

    /// Two timers of one batch throw: what the first threw runs away in its `toString`, what
    /// the second threw logs in its own. The batch's errors are read one after the other.
    @Test func twoThrownValuesOfOneTimerBatch() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try TimeLimitSurvivalTests.engine(reported)
            try await engine.execute("""
                setTimeout(() => { throw { toString() {
                  for (;;) {}
                } }; }, 1);
                setTimeout(() => { throw { toString() { console.log('described after the stop'); return 'second'; } }; }, 1);
                """, sourceURL: "hooks.js")
            try await engine.waitUntilIdle(timeout: .seconds(10))
            try await TimeLimitSurvivalTests.laterCallsWork(engine)
            // The stop is reported once, named at the loop; each throw is reported too.
            let stops = reported.values.filter { $0.kind == .timeLimitExceeded }
            guard stops.count == 1, stops[0].stop?.description == "hooks.js:2: stopped after 0.2 s",
                  reported.values.count(where: { $0.kind == .uncaughtException }) == 2 else {
                FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
                exit(Check.wrongReport.rawValue)
            }
        }
    }
}
