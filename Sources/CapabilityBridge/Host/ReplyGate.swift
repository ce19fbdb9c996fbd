import Synchronization

/// Makes sure a call is answered exactly once: by its handler or by the native time limit,
/// whichever comes first. The loser's answer is dropped.
final class ReplyGate: Sendable {
    private struct State: Sendable {
        var answered = false
        var timer: Task<Void, Never>?
    }
    private let state = Mutex(State())

    /// True for the first caller only; cancels the timer when the handler wins.
    func claim() -> Bool {
        let (won, timer): (Bool, Task<Void, Never>?) = state.withLock { s in
            guard !s.answered else { return (false, nil) }
            s.answered = true
            defer { s.timer = nil }
            return (true, s.timer)
        }
        timer?.cancel()
        return won
    }

    var isAnswered: Bool { state.withLock { $0.answered } }

    /// Keeps the timer so that an answer cancels it; cancels it at once if already answered.
    func arm(_ timer: Task<Void, Never>) {
        let late = state.withLock { s -> Bool in
            if s.answered { return true }
            s.timer = timer
            return false
        }
        if late { timer.cancel() }
    }
}
