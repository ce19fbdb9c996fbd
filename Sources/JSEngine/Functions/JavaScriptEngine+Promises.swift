import Synchronization
#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine {
    /// What `produce` yielded: a value converted at once, or a promise being watched.
    enum Settlement {
        case value(JSONValue)
        case promise(OnceResumer)
    }

    /// Runs `produce` and, when it yields a promise, waits for the promise to settle.
    ///
    /// `produce` and the attachment of the settlement handlers run as one JavaScript task
    /// (`runAsOneTask`), so a promise that is already rejected is handled before the task
    /// ends and is never reported as an unhandled rejection.
    func awaitSettlement(timeout: Duration, _ produce: () throws -> JSValueRef?) async throws -> JSONValue {
        let context = self.context
        let settlement: Settlement = try context.runAsOneTask {
            try context.watch(try produce())
        }
        switch settlement {
        case .value(let value): return value
        case .promise(let resumer): return try await resumer.wait(timeout: timeout)
        }
    }
}

extension ScriptContext {
    /// Converts `value`, or, when it is a promise, attaches handlers that report its outcome.
    func watch(_ value: JSValueRef?) throws -> JavaScriptEngine.Settlement {
        guard try isPromise(value), let value, let raw = context, let promise = JSValueToObject(raw, value, nil) else {
            return .value(try json(from: value))
        }
        let resumer = OnceResumer()
        // The handlers are made straight into a stack buffer, which the collector scans, and
        // stay there until `then` has them: an array literal would hold them on Swift's heap
        // only, across `then`'s lookup and the call (docs/engine.md, "Values made before a call").
        try withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: 2) { handlers in
            handlers.initializeElement(at: 0, to: try makeFunction(named: "onFulfilled") { owner, _, arguments in
                resumer.resume(with: Result { try owner.json(from: arguments.first ?? nil) })
                return nil
            })
            handlers.initializeElement(at: 1, to: try makeFunction(named: "onRejected") { owner, _, arguments in
                resumer.resume(with: .failure(owner.javaScriptError(from: arguments.first ?? nil)))
                return nil
            })
            guard let thenValue = try property("then", of: promise), let then = JSValueToObject(raw, thenValue, nil) else {
                throw EngineError.conversion(.unsupportedType("promise without then"))
            }
            _ = try callRaw(then, this: promise, argumentBuffer: UnsafeBufferPointer(handlers))
        }
        return .promise(resumer)
    }
}

/// Hands a promise's outcome to the Swift task awaiting it, exactly once: on settlement or
/// at the timeout, whichever comes first. An outcome that arrives before anyone waits is kept.
final class OnceResumer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<JSONValue, any Error>?
        var outcome: Result<JSONValue, any Error>?
        var timeout: Task<Void, Never>?
        var finished = false
    }
    private let state = Mutex(State())

    /// Waits for the outcome; `EngineError.timeout` after `duration` (real time).
    func wait(timeout duration: Duration) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            let ready = state.withLock { state -> Result<JSONValue, any Error>? in
                if let outcome = state.outcome {
                    state.finished = true
                    state.outcome = nil
                    return outcome
                }
                state.continuation = continuation
                return nil
            }
            if let ready {
                continuation.resume(with: ready)
                return
            }
            let task = Task { [weak self] in
                try? await Task.sleep(for: duration)
                guard !Task.isCancelled else { return }
                self?.resume(with: .failure(EngineError.timeout(after: duration)))
            }
            let keep = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.timeout = task
                return true
            }
            if !keep { task.cancel() }
        }
    }

    func resume(with result: Result<JSONValue, any Error>) {
        let (continuation, timeout) = state.withLock { state -> (CheckedContinuation<JSONValue, any Error>?, Task<Void, Never>?) in
            guard !state.finished else { return (nil, nil) }
            guard let continuation = state.continuation else {
                if state.outcome == nil { state.outcome = result }
                return (nil, nil)
            }
            state.finished = true
            defer { state.continuation = nil; state.timeout = nil }
            return (continuation, state.timeout)
        }
        timeout?.cancel()
        continuation?.resume(with: result)
    }
}
