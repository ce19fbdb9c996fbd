/// The limits and policies of a ``BridgeHost``. Every field has a default.
public struct BridgeConfiguration: Sendable {
    /// Requests longer than this (UTF-8 bytes of the request text, or of the legacy URL)
    /// are answered `payload_too_large` without being parsed. Default 256 KiB.
    public var maxRequestBytes: Int
    /// A handler still running after this is abandoned (its task cancelled) and the call
    /// answered `timeout`. Default 10 s.
    public var handlerTimeLimit: Duration
    /// Where `gotoWebview` may go (https only, these hosts). Default: nowhere.
    public var urlAllowlist: URLAllowlist
    /// The legacy transport's URL scheme, compared case-insensitively. Default `jsbridge`.
    public var legacyScheme: String
    /// The clock that measures ``handlerTimeLimit``. Default `ContinuousClock`; a test passes
    /// a clock it advances (swift-clocks' `TestClock`) and never waits for real time.
    public var clock: any Clock<Duration>

    public init(
        maxRequestBytes: Int = 256 * 1024,
        handlerTimeLimit: Duration = .seconds(10),
        urlAllowlist: URLAllowlist = .none,
        legacyScheme: String = "jsbridge",
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.maxRequestBytes = maxRequestBytes
        self.handlerTimeLimit = handlerTimeLimit
        self.urlAllowlist = urlAllowlist
        self.legacyScheme = legacyScheme
        self.clock = clock
    }
}
