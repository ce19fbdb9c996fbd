import Logging
import PostgresKit
import PostgresNIO
import ServiceLifecycle
import SQLKit
import Synchronization

/// Keeps an instance's ``SnapshotCache`` fresh from PostgreSQL notifications (docs/server.md,
/// "Hot reads and invalidation across instances") until the application shuts down.
///
/// On one connection of its own it listens on ``ServerStorage/stateChannel``, marks the
/// snapshot stale, records this instance as having seen the current generation and only then
/// lets reads skip the per-read generation check, for half the lease. Every notification marks
/// the snapshot stale and is acknowledged (the generation seen); a heartbeat on the same
/// connection renews the lease. When the connection fails, reads go back to checking at once,
/// and the service reconnects after a second. Heartbeats and the pause follow the cache's clock
/// (``ServerConfiguration/clock``), the one the lease is counted on.
struct StateListenerService: Service {
    let cache: SnapshotCache
    let client: PostgresClient
    let logger: Logger
    /// Names this instance in `server_instances`.
    let instance = String(UInt64.random(in: 0 ... .max), radix: 36)
    var heartbeatInterval: Duration = .seconds(1)

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await client.withConnection { connection in
                        try await listen(on: connection)
                    }
                }
            } catch {
                cache.endNotifications()
                // This instance checks every read now: writers need not wait for it.
                await forget()
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                logger.warning("state: the listening connection failed; reads check the generation until it is back, retrying in 1 s: \(error)")
                try? await cache.clock.sleep(for: .seconds(1))
            }
        }
        cache.endNotifications()
        await forget()
    }

    /// Removes this instance's row (best effort), so writers stop waiting for it at once instead
    /// of after its lease.
    private func forget() async {
        try? await client.withConnection { connection in
            try await connection.sql(queryLogLevel: nil).raw("DELETE FROM server_instances WHERE id = \(bind: instance)").run()
        }
    }

    private func listen(on connection: PostgresConnection) async throws {
        let db = connection.sql(queryLogLevel: nil)
        let seen = SeenGeneration()
        try await connection.listen(on: ServerStorage.stateChannel) { notifications in
            // Whatever was committed before the LISTEN is read by the next request.
            cache.invalidate()
            try await renew(db, seen: seen, generation: ServerStorage.generation(db))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        while true {
                            try await cache.clock.sleep(for: heartbeatInterval)
                            try await renew(db, seen: seen, generation: nil)
                        }
                    } catch {
                        // Ends the notification loop below too.
                        try? await connection.close()
                        throw error
                    }
                }
                for try await notification in notifications {
                    guard let generation = Int(notification.payload) else { continue }
                    cache.invalidate()
                    try await renew(db, seen: seen, generation: generation)
                }
                group.cancelAll()
                throw StorageError("the notification stream ended")
            }
        }
    }

    /// Records the generation seen (the highest so far) and extends the lease from the time the
    /// heartbeat was sent.
    private func renew(_ db: any SQLDatabase, seen: SeenGeneration, generation: Int?) async throws {
        let sent = cache.now
        try await ServerStorage.heartbeat(db, instance: instance, seen: seen.raise(to: generation))
        cache.extendNotifications(until: sent + ServerStorage.instanceLease / 2)
    }
}

/// The highest generation this instance was notified of.
private final class SeenGeneration: Sendable {
    private let value = Mutex(0)

    func raise(to generation: Int?) -> Int {
        value.withLock { value in
            if let generation { value = max(value, generation) }
            return value
        }
    }
}
