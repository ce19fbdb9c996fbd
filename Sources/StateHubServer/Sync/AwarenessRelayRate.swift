/// One sending connection's awareness relay rate (docs/sync.md §2.5, "Awareness"): a token
/// bucket of `burst` relays refilled at `perSecond`. Pure: the caller passes the time, read from
/// the document host's clock, so the rate is tested on a test clock.
struct AwarenessRelayRate {
    let perSecond: Double
    let burst: Double
    /// Relays it may cause now; below 1, the next one waits.
    private(set) var allowance: Double
    /// When `allowance` was last brought up to date, on the host's clock.
    private var refilled: Duration

    init(perSecond: Int, burst: Int, now: Duration) {
        self.perSecond = Double(max(1, perSecond))
        self.burst = Double(max(1, burst))
        allowance = self.burst
        refilled = now
    }

    /// Refills for the time since the last call, then takes one relay when one is allowed.
    mutating func take(at now: Duration) -> Bool {
        let elapsed = now - refilled
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        allowance = min(burst, allowance + max(0, seconds) * perSecond)
        refilled = now
        guard allowance >= 1 else { return false }
        allowance -= 1
        return true
    }

    /// How long until one relay is allowed.
    var untilNext: Duration { .seconds(max(0, 1 - allowance) / perSecond) }

    /// A relay of what was held, made when ``untilNext`` had passed: it spends the allowance.
    mutating func spend(at now: Duration) {
        allowance = 0
        refilled = now
    }
}
