/// What a `StateHubServer` may be tuned with. Defaults are the documented ones (docs/server.md).
public struct ServerConfiguration: Sendable {
    /// Largest version upload (bundle + stylesheet + assets as JSON), bytes.
    public var maxUploadBytes: Int
    /// Largest single asset of a version, decoded bytes (docs/server.md, "Assets").
    public var maxAssetBytes: Int
    /// All assets of a version together, decoded bytes.
    public var maxAssetsTotalBytes: Int
    /// Assets per version, at most.
    public var maxAssetCount: Int
    /// Largest theme upload, bytes.
    public var maxThemeBytes: Int
    /// Largest other admin body, bytes.
    public var maxSmallBodyBytes: Int
    /// Largest trace file the console's Traces screen may send (`POST /admin/console/trace-timeline`),
    /// bytes. The timeline answered is bounded in proportion (`TimelineModel.Limits(traceBytes:)`).
    public var maxTraceBytes: Int
    /// Trace timelines (`POST /admin/console/trace-timeline`) built at once, at most, off the event
    /// loops; past it the route answers `503 busy` with `Retry-After`.
    public var maxConcurrentTraceTimelines: Int
    /// The one origin allowed to call `/admin/…` from a browser (CORS); `nil`: none.
    public var adminOrigin: String?
    /// Memory for blob bytes (bundles, stylesheets, themes), bytes.
    public var cacheBytes: Int
    /// A connection that completes no part of a request (head, body chunk, end) for this long is
    /// closed: an idle keep-alive connection, a request head that never ends, a stalled body.
    /// A request whose handler is still answering is not cut.
    public var idleTimeout: Duration
    /// A request's body must be read whole within this time of its head, or the connection is
    /// closed: a body trickled a byte every few seconds restarts the idle timeout each time.
    public var requestBodyTimeout: Duration
    /// Open connections at most; past it the server stops accepting (the kernel's backlog holds
    /// the rest) until one closes. `nil`: derived from the descriptor limit (`defaultMaxConnections`).
    public var maxConnections: Int?
    /// The sync endpoint's caps and timings (docs/sync.md §2.5).
    public var sync = SyncConfiguration()
    /// The clock every delay and deadline of the server's own logic follows: documents unloaded
    /// after their last connection, the awareness relay rate, the snapshot lease and its
    /// heartbeat, a writer's wait for other instances, the listeners' reconnect pause. Tests
    /// pass swift-clocks' `TestClock` and advance it instead of sleeping. Socket timeouts
    /// (`idleTimeout`, `requestBodyTimeout`, the sync ping) run on the event loops' time.
    public var clock: any Clock<Duration> = ContinuousClock()

    public init(maxUploadBytes: Int = 32 << 20, maxThemeBytes: Int = 1 << 20, maxSmallBodyBytes: Int = 64 << 10,
                adminOrigin: String? = nil, cacheBytes: Int = 256 << 20,
                idleTimeout: Duration = .seconds(20), maxConnections: Int? = nil,
                maxAssetBytes: Int = 4 << 20, maxAssetsTotalBytes: Int = 16 << 20, maxAssetCount: Int = 256,
                maxTraceBytes: Int = 8 << 20, requestBodyTimeout: Duration = .seconds(60),
                maxConcurrentTraceTimelines: Int = 2) {
        self.maxUploadBytes = maxUploadBytes
        self.maxAssetBytes = maxAssetBytes
        self.maxAssetsTotalBytes = maxAssetsTotalBytes
        self.maxAssetCount = maxAssetCount
        self.maxThemeBytes = maxThemeBytes
        self.maxSmallBodyBytes = maxSmallBodyBytes
        self.maxTraceBytes = maxTraceBytes
        self.adminOrigin = adminOrigin
        self.cacheBytes = cacheBytes
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.requestBodyTimeout = requestBodyTimeout
        self.maxConcurrentTraceTimelines = maxConcurrentTraceTimelines
    }
}
