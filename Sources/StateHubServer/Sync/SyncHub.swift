import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The documents loaded on this instance and their connections (docs/sync.md §2.1): a document
/// is loaded on its first connection and dropped once its last connection has been gone for
/// ``SyncConfiguration/unloadAfter``. With PostgreSQL it also listens for other instances'
/// updates (§2.4).
actor SyncHub {
    let storage: ServerStorage
    let configuration: SyncConfiguration
    /// The server's clock: unload delays and the awareness relay rate follow it.
    let clock: ServerClock
    let logger: Logger
    /// Names this instance in NOTIFY payloads, so it skips its own.
    nonisolated let instance: String
    private var entries: [String: Entry] = [:]
    private nonisolated let connectionIDs = Atomic<Int>(0)

    private struct Entry {
        let host: SyncDocumentHost
        /// Connections attached or attaching; the host is dropped only at zero.
        var connections: Int
        /// Bumped on every attach, so a scheduled unload knows it is stale.
        var generation: Int
    }

    init(storage: ServerStorage, configuration: SyncConfiguration, clock: ServerClock, logger: Logger) {
        self.storage = storage
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        instance = String(UInt64.random(in: 0 ... .max), radix: 36)
    }

    nonisolated func nextConnectionID() -> Int { connectionIDs.add(1, ordering: .relaxed).newValue }

    /// Connections on `name` now (for the per-document cap).
    func connectionCount(_ name: String) -> Int { entries[name]?.connections ?? 0 }

    /// The loaded host of `name` with `connection` joined (loading it first when needed).
    func attach(_ name: String, _ connection: SyncConnection) async throws -> SyncDocumentHost {
        let host: SyncDocumentHost
        if var entry = entries[name] {
            entry.connections += 1
            entry.generation += 1
            entries[name] = entry
            host = entry.host
        } else {
            host = SyncDocumentHost(name: name, storage: storage, instance: instance, configuration: configuration,
                                    clock: clock, logger: logger, onFailure: { [weak self] host in await self?.forget(host) })
            entries[name] = Entry(host: host, connections: 1, generation: 0)
        }
        do {
            try await host.ensureLoaded()
        } catch {
            release(name, host)
            if entries[name]?.host === host, entries[name]?.connections == 0 { entries[name] = nil }
            throw error
        }
        await host.join(connection)
        return host
    }

    /// `connection` left `name`; the document is dropped after the delay if nobody came back.
    func detach(_ name: String, _ host: SyncDocumentHost, _ connection: SyncConnection) async {
        await host.leave(connection)
        release(name, host)
        guard let entry = entries[name], entry.host === host, entry.connections == 0 else { return }
        let generation = entry.generation
        // The instant is taken now: time that passes before the task sleeps counts.
        let unloadAt = clock.now + configuration.unloadAfter
        let clock = clock
        Task { [weak self] in
            try? await clock.sleep(until: unloadAt)
            await self?.unload(name, generation: generation)
        }
    }

    private func release(_ name: String, _ host: SyncDocumentHost) {
        guard var entry = entries[name], entry.host === host else { return }
        entry.connections -= 1
        entries[name] = entry
    }

    private func unload(_ name: String, generation: Int) async {
        guard let entry = entries[name], entry.connections == 0, entry.generation == generation else { return }
        // Whatever is in flight is stored first; nobody can attach meanwhile without bumping the generation.
        await entry.host.waitUntilStored()
        guard let again = entries[name], again.connections == 0, again.generation == generation else { return }
        entries[name] = nil
        logger.debug("sync: unloaded \(name)")
    }

    private func forget(_ host: SyncDocumentHost) {
        if let entry = entries[host.name], entry.host === host { entries[host.name] = nil }
    }

    /// Waits until every loaded document has stored what it holds (and finished a compaction
    /// under way): the storage may be closed afterwards. A compaction that met a closed storage
    /// logged `misuse` at the end of a run.
    func waitUntilAllStored() async {
        for entry in entries.values { await entry.host.waitUntilStored() }
    }

    /// Whether `name` is loaded on this instance (tests and the admin API).
    func isLoaded(_ name: String) -> Bool { entries[name] != nil }

    /// Closes, on this instance, every connection made with document token `tokenID`.
    func closeConnections(tokenID: Int) async {
        for entry in entries.values { await entry.host.closeConnections(tokenID: tokenID) }
    }

    // MARK: Other instances

    /// One NOTIFY payload: `<instance> <document> <id>` for an update, `a <instance> <document>
    /// <base64>` for awareness, `r <token id>` for a revoked token.
    func notified(_ payload: String) async {
        let parts = payload.split(separator: " ")
        if parts.count == 4, parts[0] == "a" {
            guard parts[1] != instance, let entry = entries[String(parts[2])],
                  let bytes = Data(base64Encoded: String(parts[3])) else { return }
            await entry.host.remoteAwareness([UInt8](bytes))
        } else if parts.count == 2, parts[0] == "r", let id = Int(parts[1]) {
            await closeConnections(tokenID: id)
        } else if parts.count == 3, let id = Int(parts[2]) {
            guard parts[0] != instance, let entry = entries[String(parts[1])] else { return }
            await entry.host.remoteUpdate(id: id)
        } else {
            logger.warning("sync: ignored a notification that does not read: \(payload)")
        }
    }

    /// Once a `LISTEN` is active (at start and after the listening connection was lost): every
    /// loaded document catches up from storage.
    func catchUpAll() async {
        for entry in entries.values {
            do { try await entry.host.catchUp() } catch { logger.error("sync: catching up \(entry.host.name) failed: \(error)") }
        }
    }
}
