/// The clock an engine's timers and `performance.now()` follow.
public enum EngineClock: Sendable, Equatable {
    /// Wall-clock time: timers fire on their own as the engine thread's loop runs.
    case real
    /// Virtual time that moves only when the owner calls `advanceClock(by:)` or
    /// `runUntilIdle()`: tests run timers deterministically and instantly.
    case manual
}
