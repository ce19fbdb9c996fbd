@testable import StateHubServer
import Synchronization

/// Holds a server's listener for other instances' updates at chosen steps until the test releases
/// them (``SyncListenerState``'s test seam): no sleeps, the test waits for the
/// listener's arrival and the listener for the test's release.
final class ListenerGate: Sendable {
    private let state: Mutex<State>

    private struct State {
        var holding: Set<SyncListenerStep>
        var arrived: Set<SyncListenerStep> = []
        var listener: [SyncListenerStep: CheckedContinuation<Void, Never>] = [:]
        var watchers: [SyncListenerStep: [CheckedContinuation<Void, Never>]] = [:]
    }

    init(holding steps: Set<SyncListenerStep>) { state = Mutex(State(holding: steps)) }

    /// The hook to give the server: returns at once for a step not held (or released).
    @Sendable func hook(_ step: SyncListenerStep) async {
        await withCheckedContinuation { continuation in
            let watchers = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                guard state.holding.contains(step) else { return nil }
                state.arrived.insert(step)
                state.listener[step] = continuation
                defer { state.watchers[step] = nil }
                return state.watchers[step] ?? []
            }
            guard let watchers else { return continuation.resume() }
            for watcher in watchers { watcher.resume() }
        }
    }

    /// Waits until the listener is held at `step`.
    func waitUntilHeld(at step: SyncListenerStep) async {
        await withCheckedContinuation { continuation in
            let there = state.withLock { state -> Bool in
                if state.arrived.contains(step) { return true }
                state.watchers[step, default: []].append(continuation)
                return false
            }
            if there { continuation.resume() }
        }
    }

    /// Holds the listener the next time it reaches `step` (a later round).
    func hold(_ step: SyncListenerStep) {
        state.withLock { state in
            state.holding.insert(step)
            state.arrived.remove(step)
        }
    }

    /// Lets the listener past `step`, now and in later rounds (until held again).
    func release(_ step: SyncListenerStep) {
        let waiting = state.withLock { state in
            state.holding.remove(step)
            return state.listener.removeValue(forKey: step)
        }
        waiting?.resume()
    }

    func releaseAll() {
        for step in state.withLock({ Array($0.holding) }) { release(step) }
    }
}
