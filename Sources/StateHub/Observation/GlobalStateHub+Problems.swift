extension GlobalStateHub {
    /// Every problem from now on, as it is recorded in ``problems``, as an `AsyncSequence`:
    /// what a test or a monitor awaits instead of reading ``problems`` again and again.
    ///
    /// Buffering: a consumer slower than the problems keeps the newest
    /// `Configuration.problemLimit` and loses the oldest ones (``problems`` holds the same
    /// newest ones). The sequence ends when the consumer stops iterating.
    public func problemStream() -> AsyncStream<HubProblem> {
        let (stream, continuation) = AsyncStream<HubProblem>.makeStream(bufferingPolicy: .bufferingNewest(max(configuration.problemLimit, 1)))
        let id = state.withLock { state -> Int in
            defer { state.nextSubscriberID += 1 }
            state.problemSubscribers[state.nextSubscriberID] = continuation
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.problemSubscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
