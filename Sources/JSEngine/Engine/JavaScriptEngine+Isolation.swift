#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine {
    /// The engine's thread as a task executor.
    ///
    /// Native code that converses with the page — dispatch, await the answer, dispatch
    /// again — can run on the page's own thread with
    /// `withTaskExecutorPreference(engine.taskExecutor) { … }` or
    /// `Task(executorPreference: engine.taskExecutor) { … }`: each answer then resumes the
    /// caller on the thread that produced it, with no wake-up of another thread. Keep such
    /// code short and non-blocking: while it runs, the page's JavaScript waits.
    public nonisolated var taskExecutor: any TaskExecutor { thread }

    /// Runs `body` on the engine thread with synchronous access to the engine.
    ///
    /// One hop for many operations: `try await engine.perform { engine in for … { try engine.evaluate(…) } }`.
    public func perform<T: Sendable>(_ body: @Sendable (isolated JavaScriptEngine) throws -> T) rethrows -> T {
        try body(self)
    }
}

/// Conversion strategies, exposed for `statehub bench engine` only.
public enum JSONConversionStrategy: String, Sendable, CaseIterable {
    /// `JSON.stringify` in JavaScriptCore, then our parser (what the engine uses).
    case jsonText
    /// Walking the value with the C API, property by property.
    case walking
}

extension JavaScriptEngine {
    /// Evaluates `expression` once, then converts its value `iterations` times with `strategy`.
    /// Returns the last conversion. For measuring the two strategies against each other.
    public func convertRepeatedly(_ expression: String, iterations: Int, strategy: JSONConversionStrategy) throws -> JSONValue {
        let value = try context.evaluateRaw("(\(expression))", sourceURL: "statehub:bench")
        guard let raw = context.context else { throw EngineError.closed }
        JSValueProtect(raw, value)
        // Each conversion is a turn, whose stop may close the context.
        defer { context.unprotectIfLive(value) }
        var result = JSONValue.null
        for _ in 0..<max(1, iterations) {
            switch strategy {
            case .jsonText: result = try context.json(from: value)
            case .walking: result = try context.jsonByWalking(value)
            }
        }
        return result
    }
}
