import Foundation
import Logging
import NIOCore
import SharedDocument

/// One loaded document on this instance: the serial owner that applies, stores and broadcasts
/// its updates, so every client of the instance sees one order (docs/sync.md §2.1).
///
/// An update is applied and broadcast to every other connection at once, and joins the batch to
/// store (group commit): one commit is in flight at a time, and updates arriving meanwhile form
/// the next batch. After a commit, each of its updates is acknowledged to its sender, in arrival
/// order: a peer may see an update before it is durable, its sender is told only once it is
/// (docs/sync.md §2.1).
actor SyncDocumentHost {
    let name: String
    private let storage: ServerStorage
    private let instance: String
    private let configuration: SyncConfiguration
    /// The server's clock: the awareness relay rate follows it.
    private let clock: ServerClock
    private let logger: Logger
    /// Called once when storing failed: the hub forgets this host (its connections are closed).
    private let onFailure: @Sendable (SyncDocumentHost) async -> Void

    private var document = SharedDocument()
    /// The document's full encoding, bytes: exact near the limit, an over-estimate below it.
    private var stateBytes = 0
    private var loading = LoadState.notLoaded
    private var members: [Int: Member] = [:]
    private var awareness: [Int: AwarenessUpdate.Entry] = [:]
    /// Bytes of the states in `awareness` (at most `maxAwarenessBytesPerDocument`).
    private var awarenessBytes = 0
    /// Awareness clients that left, with the clock of their removal (y-protocols' meta): an older
    /// state of one is answered with its removal, so a returning client renews itself at once.
    /// At most `maxAwarenessClientsPerDocument`; past it the record starts again.
    private var departed: [Int: Int] = [:]
    private var batch: [Pending] = []
    private var committing = false
    private var failed = false
    private var updatesSinceSnapshot = 0
    private var bytesSinceSnapshot = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Bytes of updates applied and waiting for the next commit.
    private var batchBytes = 0
    /// Readers waiting for the batch to shrink (``waitForRoom()``).
    private var roomWaiters: [CheckedContinuation<Void, Never>] = []

    /// A finished task keeps its memory while referenced, so once loaded none is kept (docs/sync.md §2.1).
    private enum LoadState {
        case notLoaded
        case loading(Task<Void, any Error>)
        case loaded
    }

    private struct Member {
        let connection: SyncConnection
        /// Document-changing messages accepted from it on this connection.
        var received = 0
        /// Awareness client ids it announced, to announce their leaving.
        var awarenessClients: Set<Int> = []
        /// Relays it may still cause (`awarenessRelaysPerSecond` after a burst of `awarenessRelayBurst`).
        var relayRate: AwarenessRelayRate
        /// Its awareness changes over the rate, waiting for the next relay.
        var held = PendingAwareness()
        var flushScheduled = false
    }

    private struct Pending {
        let connection: SyncConnection
        let sequence: Int
        /// `nil`: the message changed nothing; it is only acknowledged.
        let update: [UInt8]?
    }

    init(name: String, storage: ServerStorage, instance: String, configuration: SyncConfiguration,
         clock: ServerClock = ServerClock(ContinuousClock()), logger: Logger,
         onFailure: @escaping @Sendable (SyncDocumentHost) async -> Void) {
        self.name = name
        self.storage = storage
        self.instance = instance
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.onFailure = onFailure
    }

    /// Loads the document from storage once; later calls wait for that load.
    func ensureLoaded() async throws {
        let task: Task<Void, any Error>
        switch loading {
        case .loaded: return
        case .loading(let running): task = running
        case .notLoaded:
            task = Task { try await self.load() }
            loading = .loading(task)
        }
        // A failed load stays `.loading`: later callers get the same error.
        try await task.value
        loading = .loaded
    }

    private func load() async throws {
        let stored = try await storage.loadSyncDocument(name)
        do {
            if let snapshot = stored.snapshot { try document.applyUpdate(snapshot) }
            for update in stored.updates { try document.applyUpdate(update.data) }
        } catch {
            throw StorageError("document \(name): a stored update does not read: \(error)")
        }
        updatesSinceSnapshot = stored.updates.count
        bytesSinceSnapshot = stored.updateBytes
        measureState()
        if stateBytes > stateLimit {
            logger.warning("sync: \(name) is stored at \(stateBytes) bytes, past the \(stateLimit)-byte limit: it is kept and served read-only (docs/sync.md §2.5)")
        }
    }

    private var stateLimit: Int { min(configuration.maxDocumentBytes, messageLimit) }
    /// The largest update the server sends in one message (room left for the message's header).
    private var messageLimit: Int { configuration.maxMessageBytes - 16 }

    /// Measures the full encoding exactly (after loading or another instance's update).
    private func measureState() {
        stateBytes = (try? document.encodeStateAsUpdate().count) ?? stateBytes
    }

    /// Applies a changing update within the document's limits (docs/sync.md §2.5): too many
    /// clients is refused before applying; near the size limit the state is kept, the update
    /// applied, the result measured, and the document restored when it is too large.
    private func applyWithinLimits(_ update: [UInt8]) throws(SyncProtocolError) {
        // Every client the update names counts, its delete set's included: deletes of unknown
        // clients are kept pending and stored like structs.
        let clients: Int
        do { clients = try document.clientCount(adding: update) } catch { throw .malformedUpdate("\(error)") }
        if clients > configuration.maxDocumentClients {
            throw .tooManyClients("the update would give \(name) \(clients) clients (structs and deletes); at most \(configuration.maxDocumentClients)")
        }
        // Deletes of structs not received are kept pending: refused past the budget, counting the
        // update's structs as arriving; measured after applying when only structs that wait for
        // a missing dependency would keep the update within it.
        let pending: (ifStructsArrive: PendingDeleteRanges, ifStructsWait: PendingDeleteRanges)
        do { pending = try document.pendingDeleteRanges(adding: update) } catch { throw .malformedUpdate("\(error)") }
        if let refusal = pendingDeleteRefusal(pending.ifStructsArrive) { throw refusal }
        let pendingBefore = pendingDeleteRefusal(pending.ifStructsWait) == nil ? nil : document.pendingDeleteRanges
        // Below half the limit the state grows by at most twice the update (an over-estimate is
        // kept); near it the result is measured exactly.
        let near = stateBytes + 4 * update.count + 4_096 > stateLimit / 2 || pendingBefore != nil
        var before: [UInt8]?
        if near {
            do { before = try document.encodeStateAsUpdate() } catch { throw .malformedUpdate("\(error)") }
        }
        do { try document.applyUpdate(update) } catch { throw .malformedUpdate("\(error)") }
        guard near, let before else {
            stateBytes += 2 * update.count
            return
        }
        let after = (try? document.encodeStateAsUpdate().count) ?? Int.max
        var refusal: SyncProtocolError?
        if after > stateLimit {
            refusal = .documentTooLarge("the update would make \(name) \(after) bytes; at most \(stateLimit)")
        } else if let pendingBefore {
            var grown = document.pendingDeleteRanges
            grown.added = grown.total - pendingBefore.total
            if grown.ofClient <= pendingBefore.ofClient { grown.ofClient = 0 }
            refusal = pendingDeleteRefusal(grown)
        }
        if let refusal {
            let restored = SharedDocument()
            do { try restored.applyUpdate(before) } catch {
                logger.error("sync: restoring \(name) after a refused update failed: \(error)")
            }
            document = restored
            stateBytes = before.count
            throw refusal
        }
        stateBytes = after
    }

    /// The refusal for pending delete ranges past the budget (docs/sync.md §2.5): a client the
    /// update adds ranges to holding more than its share, or ranges added past the total.
    private func pendingDeleteRefusal(_ pending: PendingDeleteRanges) -> SyncProtocolError? {
        if let client = pending.client, pending.ofClient > configuration.maxPendingDeleteRangesPerClient {
            return .tooManyPendingDeletes("the update would keep \(pending.ofClient) delete ranges of client \(client) pending in \(name); at most \(configuration.maxPendingDeleteRangesPerClient) per client")
        }
        if pending.added > 0, pending.total > configuration.maxPendingDeleteRanges {
            return .tooManyPendingDeletes("the update would keep \(pending.total) delete ranges pending in \(name); at most \(configuration.maxPendingDeleteRanges)")
        }
        return nil
    }

    var memberCount: Int { members.count }

    /// Adds a connection and greets it: sync step 1, then everyone's awareness if anyone is present.
    func join(_ connection: SyncConnection) {
        let rate = AwarenessRelayRate(perSecond: configuration.awarenessRelaysPerSecond, burst: configuration.awarenessRelayBurst, now: clock.now)
        members[connection.id] = Member(connection: connection, relayRate: rate)
        connection.send(.syncStep1(stateVector: document.encodeStateVector()))
        if !awareness.isEmpty {
            connection.send(.awareness(AwarenessUpdate(entries: awareness.values.sorted { $0.client < $1.client }).encoded()))
        }
    }

    /// Removes a connection; tells the others that its awareness clients left.
    func leave(_ connection: SyncConnection) {
        guard let member = members.removeValue(forKey: connection.id) else { return }
        let gone = member.awarenessClients.compactMap { client -> AwarenessUpdate.Entry? in
            guard let entry = keep(nil, client: client) else { return nil }
            return AwarenessUpdate.Entry(client: client, clock: entry.clock + 1, state: "null")
        }
        for entry in gone { recordDeparture(entry) }
        relayEverywhere(gone)
    }

    /// Handles one message from `connection`.
    /// - Throws: ``SyncProtocolError`` when the message must close the connection (the document is unchanged).
    func receive(_ message: SyncMessage, from connection: SyncConnection) throws(SyncProtocolError) {
        guard !failed, members[connection.id] != nil else { throw .storage }
        switch message {
        case .syncStep1(let stateVector):
            let missing: [UInt8]
            do { missing = try document.encodeStateAsUpdate(stateVector: stateVector) } catch {
                throw .malformedMessage("the state vector of sync step 1 does not read: \(error)")
            }
            // A document stored before the limit was lowered (docs/sync.md §2.5) may lack more
            // than fits one message: the client is told and nothing oversized is sent.
            guard missing.count <= messageLimit else {
                throw .documentTooLarge("\(missing.count) bytes to send, past the \(messageLimit)-byte message cap; kept read-only")
            }
            connection.send(.syncStep2(update: missing))
        case .syncStep2(let update), .update(let update):
            let changes: Bool
            do { changes = try document.wouldChange(update) } catch {
                throw .malformedUpdate("\(error)")
            }
            if changes && connection.access == .read {
                connection.send(.permissionDenied(reason: "read-only token: the update to \(name) was not applied"))
                return
            }
            if changes {
                try applyWithinLimits(update)
                broadcast(.update(update), except: connection)
            }
            members[connection.id]?.received += 1
            batch.append(Pending(connection: connection, sequence: members[connection.id]?.received ?? 0, update: changes ? update : nil))
            if changes { batchBytes += update.count }
            startCommitting()
        case .awareness(let bytes):
            let update: AwarenessUpdate
            do { update = try AwarenessUpdate(decoding: bytes) } catch { throw .malformedMessage("awareness: \(error)") }
            // Checked before anything changes: the clients this message would introduce.
            let introduced = Set(update.entries.lazy.filter { !$0.isRemoval && self.awareness[$0.client] == nil }.map(\.client))
            let owned = members[connection.id]?.awarenessClients.count ?? 0
            if owned + introduced.count > configuration.maxAwarenessClientsPerConnection {
                throw .tooManyAwarenessClients("a connection may introduce at most \(configuration.maxAwarenessClientsPerConnection) awareness clients")
            }
            if awareness.count + introduced.count > configuration.maxAwarenessClientsPerDocument {
                throw .tooManyAwarenessClients("\(name) may hold at most \(configuration.maxAwarenessClientsPerDocument) awareness clients")
            }
            if let large = update.entries.first(where: { $0.state.utf8.count > configuration.maxAwarenessStateBytes }) {
                throw .awarenessTooLarge("client \(large.client)'s state is \(large.state.utf8.count) bytes; at most \(configuration.maxAwarenessStateBytes)")
            }
            // At most what the message adds (an entry older than the kept one adds nothing).
            let growth = update.entries.reduce(0) { sum, entry in
                entry.isRemoval ? sum : sum + entry.state.utf8.count - (awareness[entry.client]?.state.utf8.count ?? 0)
            }
            if awarenessBytes + growth > configuration.maxAwarenessBytesPerDocument {
                throw .awarenessTooLarge("\(name)'s awareness states may take at most \(configuration.maxAwarenessBytesPerDocument) bytes together")
            }
            // Relayed: what is not older than this document's entry (an equal clock changes
            // nothing anywhere, and keeps a forwarded message whole).
            var relayed: [AwarenessUpdate.Entry] = []
            var corrections: [AwarenessUpdate.Entry] = []
            for entry in update.entries {
                let known = awareness[entry.client]
                let current = known?.clock ?? departed[entry.client]
                // y-protocols' rule: a newer clock wins; at an equal clock only a removal of a
                // present client. A client never seen is taken at any clock.
                guard current.map({ $0 < entry.clock || ($0 == entry.clock && entry.isRemoval && known != nil) }) ?? true else {
                    if let current, current > entry.clock || (known == nil && !entry.isRemoval) {
                        // The sender is behind, or states a client removed at that very clock: it
                        // is told what this document holds (a returning client learns that it was
                        // removed, and y-protocols renews its state, even at an equal clock).
                        corrections.append(known ?? AwarenessUpdate.Entry(client: entry.client, clock: current, state: "null"))
                    } else {
                        relayed.append(entry)
                    }
                    continue
                }
                relayed.append(entry)
                if entry.isRemoval {
                    keep(nil, client: entry.client)
                    recordDeparture(entry)
                    members[connection.id]?.awarenessClients.remove(entry.client)
                } else {
                    keep(entry, client: entry.client)
                    departed[entry.client] = nil
                    // y-websocket's client forwards every awareness change it sees, other
                    // clients' included, so a newer state says nothing about who controls that
                    // client. Ownership stays where the client was first added (what
                    // y-websocket's own server does): the connection that announced a client
                    // this document did not hold controls it, and its leaving removes it.
                    if known == nil { members[connection.id]?.awarenessClients.insert(entry.client) }
                }
            }
            connection.sendAwareness(corrections)
            relayWithinRate(relayed, from: connection)
        case .queryAwareness:
            connection.send(.awareness(AwarenessUpdate(entries: awareness.values.sorted { $0.client < $1.client }).encoded()))
        case .permissionDenied, .acknowledgement:
            throw .malformedMessage("a client does not send \(message.kindName)")
        }
    }

    /// Awareness changes from `connection` go to every connection, the sender included (as
    /// y-websocket's server relays them), within the sender's rate: over it they are held,
    /// coalesced, and relayed together when the rate allows (docs/sync.md §2.5, "Awareness").
    private func relayWithinRate(_ entries: [AwarenessUpdate.Entry], from connection: SyncConnection) {
        guard !entries.isEmpty, var member = members[connection.id] else { return }
        member.held.merge(entries)
        if !member.flushScheduled && member.relayRate.take(at: clock.now) {
            let relayed = member.held.take()
            members[connection.id] = member
            relayEverywhere(relayed)
            return
        }
        if !member.flushScheduled {
            member.flushScheduled = true
            // A time, not a delay: however late the task starts, the relay is due then.
            let due = clock.now + member.relayRate.untilNext
            let id = connection.id
            let clock = clock
            Task { [weak self] in
                try? await clock.sleep(until: due)
                await self?.flushHeldAwareness(of: id)
            }
        }
        members[connection.id] = member
    }

    /// Relays what a connection's awareness held back over its rate.
    private func flushHeldAwareness(of id: Int) {
        guard var member = members[id] else { return }
        member.flushScheduled = false
        member.relayRate.spend(at: clock.now)
        let relayed = member.held.take()
        members[id] = member
        relayEverywhere(relayed)
    }

    /// Sends `entries` to every connection of this document and announces them to other instances.
    private func relayEverywhere(_ entries: [AwarenessUpdate.Entry]) {
        guard !entries.isEmpty else { return }
        relayToAll(entries)
        relayAwareness(AwarenessUpdate(entries: entries).encoded())
    }

    private func relayToAll(_ entries: [AwarenessUpdate.Entry]) {
        for member in members.values { member.connection.sendAwareness(entries) }
    }

    /// Keeps `entry` as `client`'s state (`nil`: removes it), counting ``awarenessBytes``; the
    /// entry it replaced.
    @discardableResult
    private func keep(_ entry: AwarenessUpdate.Entry?, client: Int) -> AwarenessUpdate.Entry? {
        let old = if let entry { awareness.updateValue(entry, forKey: client) } else { awareness.removeValue(forKey: client) }
        awarenessBytes += (entry?.state.utf8.count ?? 0) - (old?.state.utf8.count ?? 0)
        return old
    }

    /// Remembers a removal's clock, within the document's awareness cap.
    private func recordDeparture(_ entry: AwarenessUpdate.Entry) {
        if departed.count >= configuration.maxAwarenessClientsPerDocument { departed = [:] }
        departed[entry.client] = entry.clock
    }

    private func broadcast(_ message: SyncMessage, except sender: SyncConnection?) {
        let shared = OutgoingMessage(payload: message.encoded())
        for member in members.values where member.connection != sender {
            member.connection.send(shared)
        }
    }

    private func startCommitting() {
        guard !committing else { return }
        committing = true
        Task { await self.commitLoop() }
    }

    /// Stores each batch in one transaction, then acknowledges it (its updates were broadcast when applied).
    private func commitLoop() async {
        while !batch.isEmpty && !failed {
            let entries = batch
            batch = []
            batchBytes = 0
            for waiter in roomWaiters { waiter.resume() }
            roomWaiters = []
            let updates = entries.compactMap(\.update)
            if !updates.isEmpty {
                do {
                    _ = try await storage.appendSyncUpdates(name, updates, instance: instance)
                } catch {
                    logger.error("sync: storing \(updates.count) updates of \(name) failed, closing its connections: \(error)")
                    await fail()
                    return
                }
            }
            var acknowledged: [Int: (SyncConnection, Int)] = [:]
            for entry in entries where entry.connection.wantsAcknowledgements {
                acknowledged[entry.connection.id] = (entry.connection, entry.sequence)
            }
            for (connection, count) in acknowledged.values { connection.send(.acknowledgement(count: count)) }
            updatesSinceSnapshot += updates.count
            bytesSinceSnapshot += updates.reduce(0) { $0 + $1.count }
            if updatesSinceSnapshot > configuration.compactAfterUpdates || bytesSinceSnapshot > configuration.compactAfterBytes {
                await compact()
            }
        }
        committing = false
        for waiter in idleWaiters { waiter.resume() }
        idleWaiters = []
    }

    private func compact() async {
        do {
            let folded = try await storage.compactSyncDocument(name)
            logger.debug("sync: compacted \(folded) updates of \(name)")
            updatesSinceSnapshot = 0
            bytesSinceSnapshot = 0
        } catch {
            // The updates are still there: compaction is retried after the next commit.
            logger.warning("sync: compacting \(name) failed: \(error)")
        }
    }

    /// Waits while more than `maxQueueBytes` of updates wait for a commit, so clients that send
    /// faster than storage commits are slowed down (their reads pause) instead of growing memory.
    func waitForRoom() async {
        guard batchBytes > configuration.maxQueueBytes, committing, !failed else { return }
        await withCheckedContinuation { roomWaiters.append($0) }
    }

    private func fail() async {
        failed = true
        batch = []
        batchBytes = 0
        for waiter in roomWaiters { waiter.resume() }
        roomWaiters = []
        for member in members.values { member.connection.cut("storing the document failed") }
        members = [:]
        await onFailure(self)
    }

    /// Whether nothing waits to be stored (used before unloading).
    var isIdle: Bool { !committing && batch.isEmpty }

    /// Waits until the batch in flight and the ones queued behind it are stored.
    func waitUntilStored() async {
        guard committing else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    // MARK: Other instances (docs/sync.md §2.4)

    /// Announces an awareness update to other instances (PostgreSQL only) when it fits a NOTIFY.
    private func relayAwareness(_ bytes: [UInt8]) {
        guard storage.isShared else { return }
        let payload = "a \(instance) \(name) " + Data(bytes).base64EncodedString()
        guard payload.utf8.count <= ServerStorage.maxNotifyPayload else {
            logger.info("sync: an awareness update of \(name) (\(bytes.count) bytes) is too large to reach other instances")
            return
        }
        let storage = self.storage, logger = self.logger
        Task {
            do { try await storage.notifySync(payload) } catch { logger.warning("sync: relaying awareness failed: \(error)") }
        }
    }

    /// Another instance's awareness update: remembered (newer clocks win) and sent to this instance's clients.
    func remoteAwareness(_ bytes: [UInt8]) {
        guard let update = try? AwarenessUpdate(decoding: bytes) else {
            logger.warning("sync: ignored an awareness update from another instance that does not read")
            return
        }
        for entry in update.entries where (awareness[entry.client]?.clock ?? -1) <= entry.clock {
            keep(entry.isRemoval ? nil : entry, client: entry.client)
            if entry.isRemoval { recordDeparture(entry) } else { departed[entry.client] = nil }
        }
        relayToAll(update.entries)
    }

    /// Another instance stored update `id` of this document: read it, apply it, broadcast it.
    func remoteUpdate(id: Int) async {
        do {
            try await ensureLoaded()
            if let update = try await storage.syncUpdate(id: id) {
                guard try document.wouldChange(update) else { return }
                try document.applyUpdate(update)
                measureState()
                broadcast(.update(update), except: nil)
            } else {
                // Compacted before we read it: the snapshot has it.
                try await catchUp()
            }
        } catch {
            logger.error("sync: applying update \(id) of \(name) from another instance failed: \(error)")
        }
    }

    /// Applies everything storage has and broadcasts what this instance's clients lacked: nothing
    /// when it holds everything already (docs/sync.md §2.4, "Catching up").
    func catchUp() async throws {
        let stored = try await storage.loadSyncDocument(name)
        // Taken after the read: what arrived while it ran (this instance's clients' updates, other
        // instances' notified ones) is broadcast already and is not sent again.
        let before = document.encodeStateVector()
        var changed = false
        for update in (stored.snapshot.map { [$0] } ?? []) + stored.updates.map(\.data) where try document.wouldChange(update) {
            try document.applyUpdate(update)
            changed = true
        }
        guard changed else { return }
        measureState()
        let missed = try document.encodeStateAsUpdate(stateVector: before)
        guard missed.count <= messageLimit else {
            // Too much to send in one message: each client reconnects and syncs its own difference.
            for member in members.values { member.connection.cut("\(missed.count) bytes missed while the listener was down pass the message cap") }
            return
        }
        broadcast(.update(missed), except: nil)
    }

    /// Closes the connections that used document token `tokenID` (revoked).
    func closeConnections(tokenID: Int) {
        for member in members.values where member.connection.tokenID == tokenID {
            member.connection.cut("its token \(tokenID) was revoked")
        }
    }
}

private extension SyncMessage {
    var kindName: String {
        switch self {
        case .syncStep1: "sync step 1"
        case .syncStep2: "sync step 2"
        case .update: "an update"
        case .awareness: "awareness"
        case .permissionDenied: "permission denied"
        case .queryAwareness: "query awareness"
        case .acknowledgement: "acknowledgements"
        }
    }
}
