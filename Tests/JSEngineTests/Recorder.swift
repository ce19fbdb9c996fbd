import Foundation
import StateHubTestSupport
import Synchronization
import Testing

/// Collects values handed over from engine callbacks (which run on the engine thread), and
/// tells waiters of each one as it arrives.
final class Recorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        /// One stream per wait under way, told of every append.
        var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextListener = 0
    }
    private let state = Mutex(State())

    func append(_ value: Value) {
        let listeners = state.withLock { state in
            state.values.append(value)
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield() }
    }

    var values: [Value] { state.withLock { $0.values } }

    var count: Int { state.withLock { $0.values.count } }

    /// Every later append, as an event.
    private func appends() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let id = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits until `count` values arrived, woken by each append (`waitUntil`); returns whether
    /// they did. Past `eventWaitDeadline` it records an issue naming `what` and returns false.
    func wait(forCount count: Int, of what: String = "values") async -> Bool {
        await waitUntil("\(count) \(what) recorded", notifiedBy: appends(), observed: { "\(self.values)" }) {
            self.count >= count
        }
    }
}
