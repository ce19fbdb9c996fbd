import PostgresNIO
import ServiceLifecycle

/// Listens for other instances' updates and revoked tokens on PostgreSQL (docs/sync.md §2.4)
/// until the application shuts down; reconnects after a lost connection. Every round catches up
/// once its `LISTEN` is active, the first included: a NOTIFY sent before then reached nobody here.
struct SyncListenerService: Service {
    let sync: SyncService
    let client: PostgresClient

    func run() async throws {
        // Whoever waits for the ready signal hears that it will not come.
        defer { sync.listener.markEnded() }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    await sync.listener.reach(.beforeListen)
                    try await client.withConnection { connection in
                        try await connection.listen(on: ServerStorage.syncChannel) { notifications in
                            // Active: every commit's NOTIFY from now on is queued here. What was committed
                            // before (at start, or while the connection was lost) is read from the table;
                            // a queued NOTIFY of an update read here changes nothing afterwards.
                            await sync.listener.reach(.beforeCatchUp)
                            await sync.hub.catchUpAll()
                            sync.listener.markReady()
                            for try await notification in notifications {
                                await sync.hub.notified(notification.payload)
                            }
                        }
                    }
                }
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                sync.logger.warning("sync: the listening connection failed, retrying in 1 s: \(error)")
                try? await sync.hub.clock.sleep(for: .seconds(1))
            }
        }
    }
}
