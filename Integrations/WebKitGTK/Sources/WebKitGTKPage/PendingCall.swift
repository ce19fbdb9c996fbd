import Synchronization

/// The caller of one script call, resumed once: by WebKit's answer or by the caller's task
/// being cancelled, whichever comes first; the other is dropped.
final class PendingCall: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<String?, any Error>?, outcome: Result<String?, any Error>?)>((nil, nil))

    /// Takes the continuation to resume; at once if the call has already finished (cancelled first).
    func start(_ continuation: CheckedContinuation<String?, any Error>) {
        let early = state.withLock { state -> Result<String?, any Error>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Resumes the caller with `outcome` unless it has been resumed already.
    func finish(_ outcome: Result<String?, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<String?, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}
