/// A bridge host's time, read from ``BridgeConfiguration/clock``: instants are durations since
/// the host was made, so host state needs no generic clock type; sleeping waits until an
/// absolute instant of the clock, so time a test advances meanwhile is never lost.
struct QuietClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleepUntil = { instant in try await clock.sleep(until: start.advanced(by: instant), tolerance: nil) }
    }

    /// Time since the host was made.
    var now: Duration { elapsed() }

    /// Returns when the clock reaches `instant`, or throws `CancellationError` when cancelled first.
    func sleep(until instant: Duration) async throws { try await sleepUntil(instant) }
}
