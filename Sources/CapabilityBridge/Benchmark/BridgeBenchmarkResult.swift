import JSEngine

/// Figures of one ``BridgeBenchmark`` run. Times in microseconds; each figure is the median
/// over the rounds.
public struct BridgeBenchmarkResult: Sendable, Hashable {
    /// Sequential calls timed per round (after a warm-up of a tenth as many).
    public var iterations: Int
    public var rounds: Int
    /// `invokeNative` → synchronous handler → reply → promise resolved, as JavaScript times it.
    public var p50Micros: Double
    public var p99Micros: Double
    /// Sequential calls per second (iterations / loop time).
    public var callsPerSecond: Double
    /// The same loop with an async handler that does not suspend (a `Task.immediate` per call,
    /// which runs it on the page's thread).
    public var asyncP50Micros: Double
    public var asyncP99Micros: Double
    public var asyncCallsPerSecond: Double
    /// The engine baseline: the same loop over a bare `postMessage` → Swift receiver →
    /// `PageTransport.send` → promise resolved, with no bridge logic.
    public var baselineP50Micros: Double
    public var baselineP99Micros: Double
    public var baselineCallsPerSecond: Double

    /// Bridge p50 over baseline p50.
    public var ratioToBaseline: Double { baselineP50Micros > 0 ? p50Micros / baselineP50Micros : 0 }
    /// The issue's target: p50 at most 20 µs.
    public var meetsTarget: Bool { p50Micros <= 20 }

    /// The figures as JSON (for `statehub bench bridge --json`).
    public var jsonValue: JSONValue {
        .object([
            "iterations": .number(Double(iterations)), "rounds": .number(Double(rounds)),
            "p50_us": .number(Self.rounded(p50Micros)), "p99_us": .number(Self.rounded(p99Micros)),
            "calls_per_s": .number(callsPerSecond.rounded()),
            "async_p50_us": .number(Self.rounded(asyncP50Micros)), "async_p99_us": .number(Self.rounded(asyncP99Micros)),
            "async_calls_per_s": .number(asyncCallsPerSecond.rounded()),
            "baseline_p50_us": .number(Self.rounded(baselineP50Micros)), "baseline_p99_us": .number(Self.rounded(baselineP99Micros)),
            "baseline_calls_per_s": .number(baselineCallsPerSecond.rounded()),
            "ratio_to_baseline": .number(Self.rounded(ratioToBaseline)), "target_p50_us": 20, "meets_target": .bool(meetsTarget),
        ])
    }

    /// A few lines for a terminal.
    public var summary: String {
        func f(_ x: Double) -> String { String(Self.rounded(x)) }
        return """
        bridge invoke round trip (\(iterations) sequential calls × \(rounds) rounds, medians)
          bridge (sync handler):  p50 \(f(p50Micros)) µs   p99 \(f(p99Micros)) µs   \(Int(callsPerSecond.rounded())) calls/s
          bridge (async handler): p50 \(f(asyncP50Micros)) µs   p99 \(f(asyncP99Micros)) µs   \(Int(asyncCallsPerSecond.rounded())) calls/s
          engine baseline:        p50 \(f(baselineP50Micros)) µs   p99 \(f(baselineP99Micros)) µs   \(Int(baselineCallsPerSecond.rounded())) calls/s
          ratio to baseline (p50): \(f(ratioToBaseline))×   target p50 ≤ 20 µs: \(meetsTarget ? "met" : "MISSED")
        """
    }

    static func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}
