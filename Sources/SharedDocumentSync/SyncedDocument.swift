import SharedDocument

/// A shared document that works offline and syncs with a y-websocket server
/// (docs/sync.md §3): every local edit is on disk before ``transact(origin:_:)`` returns, is sent
/// when a connection is up, and leaves the disk queue once the server is known to keep it.
///
/// ```swift
/// let store = try DocumentStore(path: "documents.sqlite")
/// let board = try await SyncedDocument.open("board-alpha", store: store,
///     configuration: SyncConfiguration(server: "wss://sync.example.com/sync", token: token))
/// try await board.transact { document in try document.map("tasks").set("t1", .string("Write docs")) }
/// for await status in await board.statusUpdates() { print(status) }   // offline → connecting → syncing → synced
/// ```
///
/// The document itself is not thread-safe, so it lives inside this actor: read and edit it
/// through ``transact(origin:_:)``. The connection reconnects by itself, with back-off, until
/// ``close()``.
public actor SyncedDocument {
    public nonisolated let name: String
    let document: SharedDocument
    let store: DocumentStore
    let configuration: SyncConfiguration
    let transport: any SyncTransport
    let url: String

    var status: SyncStatus
    var statusSinks: [Int: AsyncStream<SyncStatus>.Continuation] = [:]
    var nextSinkID = 0
    /// Ids of the local updates on disk that the server is not yet known to keep, oldest first.
    var pendingIDs: [Int64]
    var connection: (any SyncConnection)?
    var session: Session?
    var loop: Task<Void, Never>?
    var isClosed = false
    var snapshotIsStale = false
    var snapshotTask: Task<Void, Never>?
    /// A storage failure inside the document's update callback, thrown by the edit that caused it.
    var storageProblem: SyncClientError?
    var changeSinks: [Int: AsyncStream<DocumentChange>.Continuation] = [:]
    /// Our presence and the other clients' (docs/sync.md §3.5).
    var presence: PresenceTable
    let presenceClock: PresenceClock
    var presenceSinks: [Int: AsyncStream<PresenceChange>.Continuation] = [:]
    /// Sleeps until the next renewal or timeout; nil while nothing can fall due.
    var presenceTimer: Task<Void, Never>?
    /// When ``presenceTimer`` wakes.
    var presenceTimerTarget: Duration?

    /// Where transactions come from, so a change from the server or the disk is not queued as a
    /// local edit.
    enum Origin: Hashable, Sendable {
        case server
        case disk
    }

    /// Opens `name` from `store` (creating it if new) and starts syncing it.
    /// - Throws: ``SyncClientError`` for an invalid name or URL, or a store that cannot be read.
    public static func open(_ name: String, store: DocumentStore, configuration: SyncConfiguration,
                            transport: any SyncTransport = WebSocketSyncTransport()) async throws(SyncClientError) -> SyncedDocument {
        guard SyncConfiguration.isValidName(name) else { throw SyncClientError(.invalidName(name)) }
        let url = try configuration.url(for: name)
        let opened = try store.open(document: name)
        let document = SharedDocument(clientID: opened.clientID)
        do {
            if let snapshot = opened.snapshot { try document.applyUpdate(snapshot, origin: Origin.disk) }
            for pending in opened.pending { try document.applyUpdate(pending.update, origin: Origin.disk) }
        } catch {
            throw SyncClientError(.corruptSnapshot("\(name): \(error)"))
        }
        let synced = SyncedDocument(name: name, document: document, store: store, configuration: configuration,
                                    transport: transport, url: url, pendingIDs: opened.pending.map(\.id))
        await synced.start()
        return synced
    }

    private init(name: String, document: SharedDocument, store: DocumentStore, configuration: SyncConfiguration,
                 transport: any SyncTransport, url: String, pendingIDs: [Int64]) {
        self.name = name
        self.document = document
        self.store = store
        self.configuration = configuration
        self.transport = transport
        self.url = url
        self.pendingIDs = pendingIDs
        self.status = SyncStatus(state: .offline, pendingUpdates: pendingIDs.count)
        self.presence = PresenceTable(localClient: document.clientID)
        self.presenceClock = PresenceClock(configuration.clock)
    }

    private func start() {
        // The document calls back synchronously inside `transact`/`applyUpdate`, which only
        // ever run on this actor.
        document.observeUpdates { [weak self] update, transaction in
            let origin = transaction.origin
            self?.assumeIsolated { $0.documentChanged(update, origin: origin) }
        }
        document.observeDeep { [weak self] changes in
            let change = DocumentChange(operations: changes.operations, origin: changes.origin as? String,
                                        fromServer: (changes.origin as? Origin) == .server)
            self?.assumeIsolated { $0.publish(change) }
        }
        loop = Task { await self.run() }
    }

    /// Runs `body` on the document in one transaction. The edit's update is on disk when this
    /// returns, and is sent if a connection is up.
    /// - Throws: what `body` throws, or ``SyncClientError`` `.storage` when the edit was made in
    ///   memory but could not be written to disk, `.closed` after ``close()``.
    ///   `origin` tags the transaction: it comes back in ``DocumentChange/origin``, so a writer
    ///   can tell its own changes from others'.
    public func transact<T: Sendable>(origin: String? = nil, _ body: @Sendable (SharedDocument) throws -> T) throws -> T {
        guard !isClosed else { throw SyncClientError(.closed) }
        let result = try document.transact(origin: origin) { _ in try body(document) }
        if let problem = storageProblem {
            storageProblem = nil
            throw problem
        }
        return result
    }

    /// The current status.
    public var currentStatus: SyncStatus { status }

    /// The client id this replica edits under; kept on disk, so it survives a restart.
    public var clientID: Int { document.clientID }

    /// Status changes, starting with the current one. A slow consumer sees the newest status
    /// (older ones it missed are dropped: the buffer holds one). Ends at ``close()``.
    public func statusUpdates() -> AsyncStream<SyncStatus> {
        let (stream, sink) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        sink.yield(status)
        if isClosed {
            sink.finish()
            return stream
        }
        nextSinkID += 1
        let id = nextSinkID
        statusSinks[id] = sink
        sink.onTermination = { [weak self] _ in Task { await self?.removeSink(id) } }
        return stream
    }

    private func removeSink(_ id: Int) { statusSinks[id] = nil }

    /// Every change to the document from now on, local or from the server, as path operations
    /// (what a JSON mirror applies to follow it). Not bounded: a consumer that falls behind
    /// holds the changes it has not read, since dropping one would make its mirror diverge.
    /// Ends at ``close()``.
    public func changes() -> AsyncStream<DocumentChange> {
        let (stream, sink) = AsyncStream.makeStream(of: DocumentChange.self)
        if isClosed {
            sink.finish()
            return stream
        }
        nextSinkID += 1
        let id = nextSinkID
        changeSinks[id] = sink
        sink.onTermination = { [weak self] _ in Task { await self?.removeChangeSink(id) } }
        return stream
    }

    private func removeChangeSink(_ id: Int) { changeSinks[id] = nil }

    func publish(_ change: DocumentChange) {
        for sink in changeSinks.values { sink.yield(change) }
    }

    /// Goes offline on purpose: closes the connection and stops reconnecting until
    /// ``resume()``. Edits go on, kept on disk. Status: `.offline`, `lastProblem` "paused".
    public func pause() async {
        guard !isClosed, let running = loop else { return }
        loop = nil
        connection?.close()
        running.cancel()
        await running.value
        setStatus(SyncStatus(state: .offline, pendingUpdates: pendingIDs.count, lastProblem: "paused"))
    }

    /// Starts syncing again after ``pause()`` (nothing when not paused).
    public func resume() {
        guard !isClosed, loop == nil else { return }
        loop = Task { await self.run() }
    }

    /// Stops syncing and writes the snapshot. Local updates not yet kept stay on disk for the
    /// next ``open(_:store:configuration:transport:)``.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        endPresence()
        connection?.close()
        loop?.cancel()
        await loop?.value
        snapshotTask?.cancel()
        saveSnapshot()
        setStatus(SyncStatus(state: .offline, pendingUpdates: pendingIDs.count, lastProblem: status.lastProblem))
        for sink in statusSinks.values { sink.finish() }
        statusSinks = [:]
        for sink in changeSinks.values { sink.finish() }
        changeSinks = [:]
    }

    // MARK: - Local and remote changes

    func documentChanged(_ update: [UInt8], origin: (any Hashable & Sendable)?) {
        if let origin = origin as? Origin {
            if origin == .server { scheduleSnapshot() }
            return
        }
        let id: Int64
        do {
            id = try store.appendPending(document: name, update: update)
        } catch {
            storageProblem = error
            return
        }
        pendingIDs.append(id)
        sendLocalUpdate(update, id: id)
        setStatus(SyncStatus(state: status.state, pendingUpdates: pendingIDs.count, lastProblem: status.lastProblem))
    }

    func scheduleSnapshot() {
        snapshotIsStale = true
        guard snapshotTask == nil else { return }
        let delay = configuration.snapshotDelay
        let clock = configuration.clock
        snapshotTask = Task {
            try? await clock.sleep(for: delay)
            self.snapshotTaskFired()
        }
    }

    private func snapshotTaskFired() {
        snapshotTask = nil
        saveSnapshot()
    }

    /// Writes the whole document as the snapshot and drops the pending updates the server
    /// keeps (they are in the snapshot now), in one transaction.
    func saveSnapshot(keptThrough: Int64? = nil, kept: [Int64] = []) {
        guard snapshotIsStale || keptThrough != nil || !kept.isEmpty else { return }
        do {
            let snapshot = try document.encodeStateAsUpdate()
            try store.saveSnapshot(document: name, snapshot: snapshot, keptThrough: keptThrough, kept: kept)
            snapshotIsStale = false
            if let keptThrough { pendingIDs.removeAll { $0 <= keptThrough } }
            if !kept.isEmpty {
                let dropped = Set(kept)
                pendingIDs.removeAll { dropped.contains($0) }
            }
        } catch {
            // Left stale: the next save retries; pending updates stay until one succeeds.
            setStatus(SyncStatus(state: status.state, pendingUpdates: pendingIDs.count, lastProblem: "\(error)"))
        }
    }

    func setStatus(_ new: SyncStatus) {
        guard new != status else { return }
        status = new
        for sink in statusSinks.values { sink.yield(new) }
    }
}
