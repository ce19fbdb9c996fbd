extension BridgeHost {
    /// Calls started and not yet answered, over all pages.
    public var callsInFlight: Int { state.withLock { $0.inFlight } }

    /// Waits until no call is in flight and no call started or was answered for a whole
    /// `quietPeriod` — what `statehub run` needs before printing the shell: a page chains
    /// calls (each reply triggers the next), so "none in flight" alone can be momentary.
    ///
    /// - Returns: `true` when quiet, `false` when `timeout` passed first.
    public func waitUntilQuiet(quietPeriod: Duration = .milliseconds(20), timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var last = state.withLock { ($0.inFlight, $0.activity) }
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: quietPeriod)
            let now = state.withLock { ($0.inFlight, $0.activity) }
            if now.0 == 0, now.1 == last.1 { return true }
            last = now
        }
        return false
    }
}
