/// ``SyncConfiguration/clock`` read as durations since the document opened, so presence can keep
/// times and deadlines without the clock's own instant type.
struct PresenceClock: Sendable {
    /// Time since the document opened.
    let now: @Sendable () -> Duration
    /// Returns once `now()` has reached the time given; throws when cancelled.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self = Self.measuring(clock)
    }

    private init(now: @escaping @Sendable () -> Duration, sleepUntil: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleepUntil = sleepUntil
    }

    private static func measuring<C: Clock<Duration>>(_ clock: C) -> PresenceClock {
        let origin = clock.now
        return PresenceClock(now: { origin.duration(to: clock.now) },
                             sleepUntil: { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) })
    }
}
