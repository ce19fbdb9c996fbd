/// The sync endpoint's limits and timings (docs/sync.md §2.2, §2.5). Defaults are the documented ones.
public struct SyncConfiguration: Sendable {
    /// Largest message a client may send, bytes; past it the connection is closed (1009).
    public var maxMessageBytes: Int = 8 << 20
    /// A connection's unsent messages, bytes and count; past either it is closed.
    public var maxQueueBytes: Int = 16 << 20
    public var maxQueueMessages: Int = 4_096
    /// Connections per document on one instance; past it `503` before the upgrade.
    public var maxConnectionsPerDocument: Int = 10_000
    /// How long a document stays loaded after its last connection left.
    public var unloadAfter: Duration = .seconds(30)
    /// Compaction when a document has more updates than this since its snapshot, or more bytes.
    public var compactAfterUpdates: Int = 500
    public var compactAfterBytes: Int = 1 << 20
    /// WebSocket ping interval; a client that does not answer within it is closed.
    public var pingInterval: Duration = .seconds(30)

    public init() {}
}
