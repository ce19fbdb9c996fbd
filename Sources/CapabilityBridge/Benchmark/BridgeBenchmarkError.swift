import JSEngine
import Trace

/// The benchmark loop did not produce figures.
public enum BridgeBenchmarkError: Error, Sendable, Hashable, CustomStringConvertible {
    case unexpectedLoopResult(String)
    public var description: String {
        switch self { case .unexpectedLoopResult(let text): "the benchmark loop returned \(text) instead of {p50, p99, rate}" }
    }
}
