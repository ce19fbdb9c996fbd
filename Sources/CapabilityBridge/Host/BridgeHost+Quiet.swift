extension BridgeHost {
    /// Calls started and not yet answered, over all pages.
    public var callsInFlight: Int { state.withLock { $0.inFlight } }

    /// Waits until no call is in flight and none started or was answered for a whole
    /// `quietPeriod` — what `statehub run` needs before printing the shell: a page chains
    /// calls (each reply triggers the next), so "none in flight" alone can be momentary.
    ///
    /// Both durations are measured on ``BridgeConfiguration/clock``, from the instant of the
    /// last call started or answered: with a test clock that nobody advances meanwhile, the
    /// wait ends once the clock is advanced by `quietPeriod` after the page's last call. While
    /// a call is in flight it waits for its answer, which the handler time limit bounds.
    ///
    /// - Returns: `true` when quiet, `false` when `timeout` passed first.
    public func waitUntilQuiet(quietPeriod: Duration = .milliseconds(20), timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = quietClock.now + timeout
        while true {
            let (inFlight, activity, lastActivityAt) = state.withLock { ($0.inFlight, $0.activity, $0.lastActivityAt) }
            if inFlight > 0 {
                await nextActivity(after: activity)
            } else {
                let quietAt = lastActivityAt + quietPeriod
                if quietAt > deadline { return false }
                do { try await quietClock.sleep(until: quietAt) } catch { return false }
                if state.withLock({ $0.inFlight == 0 && $0.activity == activity }) { return true }
            }
            if quietClock.now >= deadline { return false }
        }
    }

    /// Records a call started (`+1`) or answered (`-1`) now, and wakes the quiet waits.
    func noteActivity(inFlight change: Int) {
        let now = quietClock.now
        let waiters = state.withLock { state in
            state.inFlight += change
            state.activity += 1
            state.lastActivityAt = max(state.lastActivityAt, now)
            defer { state.activityWaiters = [] }
            return state.activityWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `activity` has grown past `seen`.
    private func nextActivity(after seen: Int) async {
        await withCheckedContinuation { continuation in
            let grown = state.withLock { state in
                if state.activity != seen { return true }
                state.activityWaiters.append(continuation)
                return false
            }
            if grown { continuation.resume() }
        }
    }
}
