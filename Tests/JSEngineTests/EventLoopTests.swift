import Foundation
import Testing
@testable import JSEngine

/// `queueMicrotask`, timers and the two clocks.
@Suite("Event loop and clocks", .tags(.engine))
struct EventLoopTests {
    private func manualEngine() throws -> JavaScriptEngine {
        try JavaScriptEngine(configuration: .init(clock: .manual))
    }

    @Test func microtasksRunInOrderAfterTheScript() async throws {
        let engine = try manualEngine()
        let order = try await engine.evaluate("""
            var log = [];
            queueMicrotask(() => log.push('micro 1'));
            Promise.resolve().then(() => log.push('promise'));
            queueMicrotask(() => { log.push('micro 2'); queueMicrotask(() => log.push('nested')); });
            setTimeout(() => log.push('timeout'), 0);
            log.push('sync');
            log.slice()
            """)
        #expect(order == ["sync"])
        #expect(try await engine.evaluate("log") == ["sync", "micro 1", "promise", "micro 2", "nested"])
        try await engine.runUntilIdle()
        #expect(try await engine.evaluate("log[log.length - 1]") == "timeout")
        await #expect(throws: JavaScriptError.self) { try await engine.evaluate("queueMicrotask(42)") }
    }

    /// A native's TypeError is a real one, not an `Error` named `TypeError`.
    @Test func aTimerWithoutAFunctionThrowsARealTypeError() async throws {
        let engine = try JavaScriptEngine()
        let checks = try await engine.evaluate("""
            [setTimeout, setInterval].map((f) => { try { f(1); return 'no throw' } catch (e) { return [e instanceof TypeError, e.name, e.message] } })
            """)
        #expect(checks == [[true, "TypeError", "setTimeout needs a function"], [true, "TypeError", "setInterval needs a function"]])
        // The prototype was taken at start: a page replacing the global does not change it.
        let replaced = try await engine.evaluate("""
            const Real = TypeError; globalThis.TypeError = function Fake() {};
            (() => { try { setTimeout(1) } catch (e) { return e instanceof Real } })()
            """)
        #expect(replaced == true)
    }

    @Test func timerClearedBeforeFiringNeverFires() async throws {
        let engine = try manualEngine()
        try await engine.evaluate("""
            var fired = [];
            const a = setTimeout(() => fired.push('a'), 10);
            const b = setTimeout(() => fired.push('b'), 10);
            setTimeout(() => clearTimeout(b), 5);
            clearTimeout(a);
            clearTimeout(9999); clearTimeout(undefined); // unknown ids are ignored
            """)
        #expect(await engine.pendingTimerCount == 2)
        try await engine.advanceClock(by: .milliseconds(100))
        #expect(try await engine.evaluate("fired") == [])
        #expect(await engine.pendingTimerCount == 0)
    }

    @Test func timeoutPassesExtraArgumentsAndReturnsIDs() async throws {
        let engine = try manualEngine()
        let ids = try await engine.evaluate("var got; [setTimeout((x, y) => { got = [x, y]; }, 1, 'x', {y: 2}), setTimeout(() => {}, 1)]")
        #expect(ids.arrayValue?.count == 2)
        #expect(ids[0] != ids[1])
        try await engine.runUntilIdle()
        #expect(try await engine.evaluate("got") == ["x", ["y": 2]])
        await #expect(throws: JavaScriptError.self) { try await engine.evaluate("setTimeout('code as text', 1)") }
    }

    @Test func intervalRepeatsUntilCleared() async throws {
        let engine = try manualEngine()
        try await engine.evaluate("""
            var ticks = [];
            const id = setInterval(() => { ticks.push(performance.now()); if (ticks.length === 3) clearInterval(id); }, 100);
            """)
        try await engine.advanceClock(by: .milliseconds(250))
        #expect(try await engine.evaluate("ticks") == [100, 200])
        try await engine.advanceClock(by: .milliseconds(1_000))
        #expect(try await engine.evaluate("ticks") == [100, 200, 300])
        #expect(await engine.pendingTimerCount == 0)
    }

    /// Timers fire by due time, then by insertion order; intervals interleave with timeouts.
    @Test func manualClockFiresByDueTimeThenInsertion() async throws {
        let engine = try manualEngine()
        try await engine.evaluate("""
            var log = [];
            setTimeout(() => log.push('t30'), 30);
            setTimeout(() => log.push('t10 first'), 10);
            const fast = setInterval(() => log.push('i10@' + performance.now()), 10);
            setTimeout(() => log.push('t10 second'), 10);
            setTimeout(() => { log.push('t25'); setTimeout(() => log.push('t25+0'), 0); }, 25);
            setInterval(() => log.push('i15@' + performance.now()), 15);
            setTimeout(() => clearInterval(fast), 35);
            """)
        try await engine.advanceClock(by: .milliseconds(9))
        #expect(try await engine.evaluate("log.length") == 0)
        try await engine.advanceClock(by: .milliseconds(36)) // to 45 ms
        let log = try await engine.evaluate("log")
        #expect(log == [
            "t10 first", "i10@10", "t10 second",
            "i15@15",
            "i10@20",
            "t25", "t25+0",
            // At 30: t30 was scheduled first; the intervals count as scheduled when last
            // rescheduled (i15 at 15, i10 at 20). At 35 t35 clears i10, so no i10@40.
            "t30", "i15@30", "i10@30",
            "i15@45",
        ])
        #expect(try await engine.evaluate("performance.now()") == 45)
    }

    @Test func runUntilIdleJumpsThroughTimers() async throws {
        let engine = try manualEngine()
        try await engine.evaluate("""
            var log = [];
            setTimeout(() => { log.push(performance.now()); setTimeout(() => log.push(performance.now()), 5000); }, 1000);
            """)
        // Virtual time: the timers fire at 1000 and 6000 without any real wait.
        try await engine.runUntilIdle()
        #expect(try await engine.evaluate("log") == [1000, 6000])
        #expect(await engine.pendingTimerCount == 0)
    }

    @Test func endlessIntervalIsNotIdle() async throws {
        let engine = try manualEngine()
        try await engine.evaluate("var n = 0; setInterval(() => n++, 1)")
        await #expect(throws: EngineError.notIdle(firedTimers: 500)) { try await engine.runUntilIdle(limit: 500) }
        #expect(try await engine.evaluate("n") == 500)
        // The clock advanced with the firings.
        #expect(try await engine.evaluate("performance.now()") == 500)
    }

    @Test func clockOperationsNeedTheirClock() async throws {
        let real = try JavaScriptEngine()
        await #expect(throws: EngineError.self) { try await real.advanceClock(by: .seconds(1)) }
        await #expect(throws: EngineError.self) { try await real.runUntilIdle() }
        // Under the manual clock, waitUntilIdle is runUntilIdle.
        let manual = try manualEngine()
        try await manual.evaluate("var done = false; setTimeout(() => { done = true; }, 60000)")
        try await manual.waitUntilIdle(timeout: .milliseconds(50))
        #expect(try await manual.evaluate("done") == true)
    }

    @Test func uncaughtTimerExceptionIsReported() async throws {
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual, onUnhandledError: { reported.append($0) }))
        try await engine.evaluate("var after = false; setTimeout(function tick() { throw new Error('timer failed'); }, 1); setTimeout(() => { after = true; }, 2)", sourceURL: "timer.js")
        try await engine.runUntilIdle()
        #expect(reported.values.map(\.kind) == [.uncaughtException])
        #expect(reported.values.first?.error.message == "timer failed")
        #expect(reported.values.first?.error.stack?.contains("tick@timer.js") == true)
        #expect(try await engine.evaluate("after") == true) // later timers still run
    }

    @Test func realClockTimersFire() async throws {
        let engine = try JavaScriptEngine()
        let start = ContinuousClock.now
        try await engine.evaluate("""
            var log = [];
            setTimeout(() => log.push('b'), 60);
            setTimeout(() => log.push('a'), 20);
            var count = 0; const id = setInterval(() => { if (++count === 3) clearInterval(id); }, 10);
            """)
        try await engine.waitUntilIdle(timeout: .seconds(5))
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(60)) // no upper bound: a loaded machine is slow, not wrong
        #expect(try await engine.evaluate("[log, count]") == [["a", "b"], 3])
        #expect(await engine.pendingTimerCount == 0)
    }

    @Test func realClockWaitUntilIdleTimesOut() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("setInterval(() => {}, 5)")
        await #expect(throws: EngineError.timeout(after: .milliseconds(100))) { try await engine.waitUntilIdle(timeout: .milliseconds(100)) }
        // Closing drops pending timers.
        await engine.close()
        #expect(await engine.pendingTimerCount == 0)
    }
}

/// Timers in a heap, cancellation by id.
@Suite("Timer queue", .tags(.engine))
struct TimerQueueTests {
    @Test func firesInDueThenInsertionOrderWithCancellationsAnywhere() async throws {
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual))
        let order = try await engine.evaluate("""
            (function () {
              const order = [];
              const ids = [];
              for (let i = 0; i < 2000; i++) ids.push(setTimeout(() => order.push(i), (i * 37) % 50));
              for (let i = 0; i < 2000; i += 3) clearTimeout(ids[i]);
              clearTimeout(Infinity); clearTimeout(NaN); clearTimeout(-1); clearTimeout(1e300); clearTimeout('x');
              globalThis.order = order;
              return ids.length;
            })()
            """)
        #expect(order == 2000)
        try await engine.runUntilIdle()
        let fired = try await engine.evaluate("order").arrayValue?.compactMap(\.intValue) ?? []
        let expected = (0..<2000).filter { $0 % 3 != 0 }.sorted { lhs, rhs in
            let (a, b) = ((lhs * 37) % 50, (rhs * 37) % 50)
            return a != b ? a < b : lhs < rhs
        }
        #expect(fired == expected)
        #expect(await engine.pendingTimerCount == 0)
    }

    @Test func intervalsClearThemselvesAndCancelledTimersDoNotAccumulate() async throws {
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual))
        try await engine.execute("""
            var ticks = 0;
            const id = setInterval(() => { if (++ticks === 5) clearInterval(id); }, 10);
            for (let i = 0; i < 50000; i++) clearTimeout(setTimeout(() => { throw new Error('cancelled timer fired'); }, 1000000));
            """)
        #expect(await engine.pendingTimerCount == 1)
        try await engine.runUntilIdle()
        #expect(try await engine.evaluate("ticks") == 5)
        #expect(await engine.unhandledErrors.isEmpty)
    }
}

/// Due timers fire many to one call into JavaScript: order, cancellation
/// and errors stay per timer, and a stop inside a batch leaves the timers after it to fire.
@Suite("Timer batches", .tags(.integration))
struct TimerBatchTests {
    @Test(arguments: [EngineClock.manual, .real])
    func aBatchKeepsOrderCancellationAndErrorsPerTimer(clock: EngineClock) async throws {
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(clock: clock, onUnhandledError: { reported.append($0) }))
        try await engine.execute("""
            var log = [];
            var ids = [];
            for (let i = 0; i < 200; i++) ids.push(setTimeout(function (n) {
              log.push(n);
              if (n === 10) { clearTimeout(ids[11]); clearTimeout(ids[150]); clearInterval(every); }
              if (n === 20 || n === 120) throw new Error('timer ' + n);
            }, 0, i));
            var every = setInterval(function () { log.push('interval'); }, 0);
            """, sourceURL: "batch.js")
        if clock == .manual { try await engine.runUntilIdle() } else { try await engine.waitUntilIdle(timeout: .seconds(10)) }
        let expected: [JSONValue] = (0..<200).filter { $0 != 11 && $0 != 150 }.map { .number(Double($0)) }
        #expect(try await engine.evaluate("log") == .array(expected))
        #expect(reported.values.map(\.error.message) == ["timer 20", "timer 120"])
        #expect(reported.values.allSatisfy { $0.kind == .uncaughtException })
        #expect(await engine.pendingTimerCount == 0)
    }

    @Test func aStopInsideABatchIsReportedAndTheRestFire() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try JavaScriptEngine(configuration: .init(clock: .manual, executionTimeLimit: .milliseconds(200),
                                                                   onUnhandledError: { reported.append($0) }))
            try await engine.execute("""
                var fired = 0;
                for (let i = 0; i < 100; i++) setTimeout(function () {
                  fired++;
                  if (i === 50) {
                    while (true) {}
                  }
                }, 0);
                """, sourceURL: "stop.js")
            try await engine.runUntilIdle()
            let stops = reported.values.filter { $0.kind == .timeLimitExceeded }
            guard stops.count == 1, stops[0].stop?.kind == .timer, stops[0].stop?.description == "stop.js:5: stopped after 0.2 s",
                  try await engine.evaluate("fired") == 100, await engine.pendingTimerCount == 0 else {
                FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
                exit(40)
            }
            exit(0)
        }
    }
}
