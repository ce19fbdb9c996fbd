/// A random number generator that a seed replays exactly (SplitMix64).
///
/// Randomised tests, soaks and benchmark workloads print their seed; running again with that seed
/// makes the same choices, so a failure found once can be found again. The sequence is part of the
/// contract: benchmark workloads that other implementations replay depend on it not changing.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 20261123)
/// let index = Int.random(in: 0..<count, using: &random)
/// ```
///
/// Not for anything secret: the next value follows from the last.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    /// The generator's whole state: the seed, advanced once per value.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (0 when `bound` is under 1), by remainder: slightly biased, but the
    /// same on every implementation that replays a workload, which `Int.random(in:using:)` is not.
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}
