/// The server's time, read from ``ServerConfiguration/clock``: `ContinuousClock` on a server, a
/// test clock (swift-clocks' `TestClock`) that a test advances instead of sleeping.
///
/// Instants are durations since the server was made, so state that keeps them needs no generic
/// clock type; sleeping waits until an absolute instant of the configured clock, so time a test
/// advances while a task is about to sleep is never lost.
struct ServerClock: Sendable {
    /// Time since the server was made.
    let elapsed: @Sendable () -> Duration
    /// Returns when the clock reaches `instant` (a duration since the server was made), or throws
    /// `CancellationError` when the task is cancelled first.
    let sleepUntil: @Sendable (_ instant: Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleepUntil = { instant in try await clock.sleep(until: start.advanced(by: instant), tolerance: nil) }
    }

    /// Time since the server was made.
    var now: Duration { elapsed() }

    /// Returns when the clock reaches `instant` (``now`` plus a delay taken when the work started).
    func sleep(until instant: Duration) async throws { try await sleepUntil(instant) }

    /// Returns after `delay` from now on this clock.
    func sleep(for delay: Duration) async throws { try await sleepUntil(now + delay) }
}
