/// The hub's time, read from the clock in `GlobalStateHub.Configuration`: a
/// `ContinuousClock` in an app, a test clock (swift-clocks' `TestClock`) that a test
/// advances instead of sleeping.
///
/// Instants are kept as durations since the hub was created, so that hub state needs no
/// generic clock type; sleeping waits until an absolute instant of the configured clock, so
/// time a test advances while the hub is about to sleep is never lost.
struct HubClock: Sendable {
    /// Time since the hub was created.
    let now: @Sendable () -> Duration
    /// Returns when the clock reaches `instant` (a duration since the hub was created), or
    /// throws `CancellationError` when the task is cancelled first.
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { instant in try await clock.sleep(until: start.advanced(by: instant), tolerance: nil) }
    }
}
