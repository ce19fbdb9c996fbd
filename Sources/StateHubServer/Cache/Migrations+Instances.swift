extension Migrations {
    /// Migration 4 (docs/server.md, "Hot reads and invalidation across instances"): each
    /// instance's last seen generation and lease, so an admin write waits until every live
    /// instance has dropped its snapshot. Only PostgreSQL uses it; SQLite has it for one schema.
    static let instances = Migration(id: 4, name: "server instances") { _ in
        ["CREATE TABLE server_instances (id TEXT PRIMARY KEY, seen_generation BIGINT NOT NULL, heartbeat_at BIGINT NOT NULL)"]
    }
}
