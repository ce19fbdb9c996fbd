import JSEngine
import Logging

/// `statehub bench engine`, timer figures: 100,000 timers scheduled, then
/// fired or cancelled, under the manual clock so only the queue's work is measured.
struct TimerBenchmark {
    var repetitions = 5
    var count = 100_000

    func run() async throws -> [Figure] {
        var fire: [Double] = []
        var cancel: [Double] = []
        for _ in 0..<repetitions {
            fire.append(try await milliseconds(cancelling: false))
            cancel.append(try await milliseconds(cancelling: true))
        }
        return [
            Figure(key: "engine.timers_fire_100k", label: "100,000 setTimeout scheduled and fired", unit: "ms", higherIsBetter: false, jit: median(fire)),
            Figure(key: "engine.timers_cancel_100k", label: "100,000 setTimeout scheduled and cleared (reverse order)", unit: "ms", higherIsBetter: false, jit: median(cancel)),
        ]
    }

    private func milliseconds(cancelling: Bool) async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "timers", clock: .manual, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })))
        let start = ContinuousClock.now
        let fired = try await engine.evaluate("""
            (function () {
              let fired = 0;
              const ids = [];
              for (let i = 0; i < \(count); i++) ids.push(setTimeout(() => { fired++; }, (i * 7919) % 1000));
              if (\(cancelling)) for (let i = ids.length - 1; i >= 0; i--) clearTimeout(ids[i]);
              globalThis.firedCount = () => fired;
              return ids.length;
            })()
            """)
        try await engine.runUntilIdle(limit: count + 1)
        let elapsed = (ContinuousClock.now - start).seconds
        let count = try await engine.evaluate("firedCount()")
        guard fired == .number(Double(self.count)), count == .number(cancelling ? 0 : Double(self.count)) else {
            throw BenchmarkError.mirrorMismatch("timers fired: \(count)")
        }
        await engine.close()
        return elapsed * 1e3
    }
}
