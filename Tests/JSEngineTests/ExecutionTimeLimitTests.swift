import Testing
@testable import JSEngine

@Suite("Execution time limit", .tags(.engine))
struct ExecutionTimeLimitTests {
    @Test func endlessLoopIsStoppedAndEngineStaysUsable() async throws {
        let limit = Duration.milliseconds(200)
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: limit))
        try await engine.evaluate("var before = 'kept'")
        let start = ContinuousClock.now
        await #expect(throws: EngineError.self) { 
            try await engine.evaluate("while (true) {}", sourceURL: "spin.js")
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(150)) // no upper bound: a loaded machine is slow, not wrong
        #expect(try await engine.evaluate("before + ' ' + (1 + 1)") == "kept 2")
        // And again: the limit applies to each entry, not once.
        await #expect(throws: EngineError.self) { 
            try await engine.evaluate("for (;;) { Math.random(); }")
        }
        #expect(try await engine.evaluate("'still usable'") == "still usable")
    }

    @Test func stopsRunawayFunctionsTimersAndPromises() async throws {
        let limit = Duration.milliseconds(100)
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual, executionTimeLimit: limit, onUnhandledError: { reported.append($0) }))
        let spin = try await engine.function("function () { while (true) {} }")
        await #expect(throws: EngineError.self) { try await engine.call(spin) }
        await #expect(throws: EngineError.self) { 
            try await engine.evaluateAndAwait("new Promise(() => { while (true) {} })")
        }
        try await engine.evaluate("var afterSpin = false; setTimeout(() => { while (true) {} }, 1); setTimeout(() => { afterSpin = true; }, 2)")
        try await engine.runUntilIdle()
        #expect(reported.values.count == 1)
        #expect(reported.values.first?.kind == .timeLimitExceeded)
        #expect(try await engine.evaluate("afterSpin") == true)
    }

    @Test func shortScriptsAreUnaffected() async throws {
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(100)))
        for _ in 0..<20 {
            #expect(try await engine.evaluate("(() => { let s = 0; for (let i = 0; i < 10000; i++) s += i; return s; })()") == 49_995_000)
        }
    }
}

/// An owner's evaluation with a time limit of its own: the CLI's read of a 200,000-row
/// `$state` to compare it with its mirror must not be stopped by the page's 0.3 s limit and
/// fail a healthy run.
@Suite("Time limit: an owner's evaluation with its own limit", .tags(.engine))
struct OwnTimeLimitTests {
    @Test func aLongerLimitCoversOneEvaluationOnly() async throws {
        let unresponsive = Recorder<EngineActivity.Snapshot>()
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(100),
                                                               onUnresponsive: { unresponsive.append($0) }))
        // 1.5 s of wall-clock time: well past 100 ms of CPU time even on a loaded machine.
        let busy = "(() => { const start = Date.now(); let n = 0; while (Date.now() - start < 1500) { n++ } return 'done' })()"
        #expect(try await engine.evaluate(busy, timeLimit: .seconds(5)) == "done")
        #expect(unresponsive.values.isEmpty, "the watch scaled its threshold by the turn's limit")
        // The next evaluation has the configured limit again; a stop under a longer one says it.
        do {
            try await engine.evaluate("for (;;) {}")
            Issue.record("not stopped")
        } catch let error as EngineError {
            #expect(error.stop?.after == .milliseconds(100), "\(error)")
        }
        do {
            try await engine.evaluate("for (;;) {}", timeLimit: .milliseconds(300))
            Issue.record("not stopped")
        } catch let error as EngineError {
            #expect(error.stop?.after == .milliseconds(300), "\(error)")
        }
        // Never shorter than the configured limit.
        #expect(try await engine.evaluate("(() => { const s = Date.now(); while (Date.now() - s < 50) {} return 1 })()", timeLimit: .milliseconds(1)) == 1)
    }
}
