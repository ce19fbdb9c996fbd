import Synchronization
#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine {
    /// Waits for `value` to settle when it is a promise; converts it directly otherwise.
    func settle(_ value: JSValueRef?, timeout: Duration) async throws -> JSONValue {
        guard context.isPromise(value), let value, let raw = context.context,
              let promise = JSValueToObject(raw, value, nil)
        else {
            return try context.json(from: value)
        }
        let resumer = OnceResumer()
        let context = self.context
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            resumer.install(continuation)
            do {
                let onFulfilled = try context.makeFunction(named: "onFulfilled") { owner, _, arguments in
                    resumer.resume(with: Result { try owner.json(from: arguments.first ?? nil) })
                    return nil
                }
                let onRejected = try context.makeFunction(named: "onRejected") { owner, _, arguments in
                    resumer.resume(with: .failure(owner.javaScriptError(from: arguments.first ?? nil)))
                    return nil
                }
                guard let thenValue = try context.property("then", of: promise),
                      let then = JSValueToObject(raw, thenValue, nil)
                else { throw EngineError.conversion(.unsupportedType("promise without then")) }
                _ = try context.callRaw(then, this: promise, arguments: [onFulfilled, onRejected])
                resumer.startTimeout(timeout)
            } catch {
                resumer.resume(with: .failure(error))
            }
        }
    }
}

/// Resumes a continuation exactly once: on settlement or at the timeout, whichever is first.
final class OnceResumer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<JSONValue, any Error>?
        var timeout: Task<Void, Never>?
    }
    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<JSONValue, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func startTimeout(_ duration: Duration) {
        let task = Task { [weak self] in
            try? await Task.sleep(for: duration)
            guard !Task.isCancelled else { return }
            self?.resume(with: .failure(EngineError.timeout(after: duration)))
        }
        let keep = state.withLock { state -> Bool in
            guard state.continuation != nil else { return false }
            state.timeout = task
            return true
        }
        if !keep { task.cancel() }
    }

    func resume(with result: Result<JSONValue, any Error>) {
        let (continuation, timeout) = state.withLock { state in
            defer { state.continuation = nil; state.timeout = nil }
            return (state.continuation, state.timeout)
        }
        timeout?.cancel()
        continuation?.resume(with: result)
    }
}
