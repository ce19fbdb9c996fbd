#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds: never goes backwards, unaffected
/// by wall-clock changes. O(1), no allocation (a vDSO call on Linux, ~20 ns),
/// cheaper than `ContinuousClock` arithmetic on `Duration`'s 128-bit attoseconds.
struct MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point (boot, on Linux).
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid timespec pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
