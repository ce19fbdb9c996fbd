/// What a ``PagePool`` has done so far.
public struct PagePoolStatistics: Sendable, Equatable {
    /// Takes answered with a warm page.
    public var warm = 0
    /// Takes that found no warm page and built one (``PagePool/take(snapshots:)``).
    public var cold = 0
    /// Pages built in all, warm and cold.
    public var built = 0
    /// Why the last refill stopped, if it failed; cleared by the next page it builds.
    public var lastRefillError: String?

    public init() {}
}
