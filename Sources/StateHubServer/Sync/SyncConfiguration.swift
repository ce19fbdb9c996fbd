/// The sync endpoint's limits and timings (docs/sync.md §2.2, §2.5). Defaults are the documented ones.
public struct SyncConfiguration: Sendable {
    /// Largest message a client may send, bytes; past it the connection is closed (1009).
    public var maxMessageBytes: Int = 8 << 20
    /// A document's whole state (its full encoding as one update), bytes: an update that would
    /// take it past this is refused, so a full sync step 2 always fits `maxMessageBytes`. Kept at
    /// most `maxMessageBytes - 16` (a message's header).
    public var maxDocumentBytes: Int = (8 << 20) - 16
    /// Distinct clients (state-vector entries) a document may hold; an update adding more is refused.
    public var maxDocumentClients: Int = 20_000
    /// Delete ranges a document may keep pending (deletes of structs it has not received), of
    /// one client and of all together: an update that would add ranges past either is refused
    /// (`too-many-pending-deletes`).
    public var maxPendingDeleteRangesPerClient: Int = 10_000
    public var maxPendingDeleteRanges: Int = 100_000
    /// Awareness clients one connection may introduce, and a document may hold; past either the
    /// connection is closed (`too-many-awareness-clients`).
    public var maxAwarenessClientsPerConnection: Int = 64
    public var maxAwarenessClientsPerDocument: Int = 10_000
    /// One awareness client's state (its JSON text), bytes; a message with a larger one closes
    /// the connection (`awareness-too-large`) before anything of it is kept or relayed.
    public var maxAwarenessStateBytes: Int = 32 << 10
    /// All awareness states a document holds, bytes; a message that would take it past this
    /// closes the connection (`awareness-too-large`).
    public var maxAwarenessBytesPerDocument: Int = 16 << 20
    /// Awareness waiting to be coalesced for one receiving connection, bytes; past it what waits
    /// is queued as one message, which `maxQueueBytes` counts.
    public var maxPendingAwarenessBytes: Int = 1 << 20
    /// Awareness relays one connection's messages may cause per second, after a burst of
    /// `awarenessRelayBurst`: what it sends faster is kept (newest clock per client) and relayed
    /// together once the rate allows. Nothing is refused and no connection is closed for it.
    public var awarenessRelaysPerSecond: Int = 20
    public var awarenessRelayBurst: Int = 40
    /// A connection's unsent messages, bytes and count; past either it is closed.
    public var maxQueueBytes: Int = 16 << 20
    public var maxQueueMessages: Int = 4_096
    /// Bytes waiting to be sent on this instance, all connections together, each shared message
    /// counted once; past it the connections with the most waiting are cut off first.
    public var maxQueuedBytesTotal: Int = 256 << 20
    /// Connections per document on one instance; past it `503` before the upgrade.
    public var maxConnectionsPerDocument: Int = 10_000
    /// How long a document stays loaded after its last connection left.
    public var unloadAfter: Duration = .seconds(30)
    /// Compaction when a document has more updates than this since its snapshot, or more bytes.
    public var compactAfterUpdates: Int = 500
    public var compactAfterBytes: Int = 1 << 20
    /// WebSocket ping interval; a client that leaves a ping unanswered until the next one is
    /// closed (`1001`) and its TCP connection ended at once: a vanished client (no close frame,
    /// no FIN) is gone after one to two intervals.
    public var pingInterval: Duration = .seconds(10)

    public init() {}

    /// The caps of one connection's queue.
    var connectionLimits: SyncConnection.Limits {
        SyncConnection.Limits(maxQueueBytes: maxQueueBytes, maxQueueMessages: maxQueueMessages,
                              maxPendingAwarenessBytes: maxPendingAwarenessBytes)
    }
}
