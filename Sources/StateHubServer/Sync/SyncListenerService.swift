import PostgresNIO
import ServiceLifecycle

/// Listens for other instances' updates and revoked tokens on PostgreSQL (docs/sync.md §2.4)
/// until the application shuts down; reconnects after a lost connection and catches up.
struct SyncListenerService: Service {
    let sync: SyncService
    let client: PostgresClient

    func run() async throws {
        // Whoever waits for the ready signal hears that it will not come.
        defer { sync.listener.markEnded() }
        var first = true
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let catchUp = !first
            first = false
            do {
                try await cancelWhenGracefulShutdown {
                    await sync.listener.reach(.beforeListen)
                    try await client.withConnection { connection in
                        try await connection.listen(on: ServerStorage.syncChannel) { notifications in
                            await sync.listener.reach(.beforeCatchUp)
                            // Anything committed while nobody listened is read from the table.
                            if catchUp { await sync.hub.catchUpAll() }
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
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
