import Synchronization

/// A point in each round of the listener for other instances' updates (docs/sync.md §2.4) where
/// ``SyncListenerState``'s test hook is called.
enum SyncListenerStep: Sendable, Equatable {
    /// Before the round's `LISTEN` is sent: other instances' NOTIFYs do not reach this one yet.
    case beforeListen
    /// The `LISTEN` is active (NOTIFYs are queued for this instance) and the catch-up has not run.
    case beforeCatchUp
}

/// Whether this instance hears other instances' updates yet (docs/sync.md §2.4, "Ready"): the ready
/// signal of a server on PostgreSQL waits for the listener's first `LISTEN` and its catch-up.
final class SyncListenerState: Sendable {
    private let state = Mutex(State())

    private struct State {
        var ready = false
        /// The listener stopped (shutdown) before it was ever ready.
        var ended = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var hook: (@Sendable (SyncListenerStep) async -> Void)?
    }

    /// Whether the first `LISTEN` is active and its catch-up done.
    var isReady: Bool { state.withLock { $0.ready } }

    /// The first `LISTEN` is active and caught up (later rounds change nothing).
    func markReady() { resumeWaiters { $0.ready = true } }

    /// The listener stopped: whoever still waits hears it will never be ready.
    func markEnded() { resumeWaiters { $0.ended = true } }

    /// Returns `true` once ready, `false` when the listener stopped before it was.
    func waitUntilReady() async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.ready || state.ended { return state.ready }
                state.waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    private func resumeWaiters(_ change: (inout State) -> Void) {
        let (waiters, ready) = state.withLock { state in
            change(&state)
            defer { state.waiters = [] }
            return (state.waiters, state.ready)
        }
        for waiter in waiters { waiter.resume(returning: ready) }
    }

    /// Test seam (internal): `hook` runs at every ``SyncListenerStep`` of every round, on the
    /// listener's task, so a test holds the listener at that point until `hook` returns. Set it
    /// before the application runs.
    func setTestHook(_ hook: (@Sendable (SyncListenerStep) async -> Void)?) { state.withLock { $0.hook = hook } }

    func reach(_ step: SyncListenerStep) async {
        guard let hook = state.withLock({ $0.hook }) else { return }
        await hook(step)
    }
}
