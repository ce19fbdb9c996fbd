import Foundation
import SQLKit

/// The schema, as numbered migrations run in order on both databases (docs/server.md,
/// "Storage"). Never edit one that has shipped: add the next.
enum Migrations {
    struct Migration: Sendable {
        let id: Int
        let name: String
        /// Statements for the dialect (`true` for PostgreSQL).
        let statements: @Sendable (_ postgres: Bool) -> [String]
    }

    static let all: [Migration] = [
        Migration(id: 1, name: "initial schema") { postgres in
            let serial = postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
            let bytes = postgres ? "BYTEA" : "BLOB"
            return [
                "CREATE TABLE blobs (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, data \(bytes) NOT NULL)",
                "CREATE TABLE apps (name TEXT PRIMARY KEY, release_id BIGINT, pinned_version TEXT)",
                """
                CREATE TABLE app_versions (app TEXT NOT NULL REFERENCES apps(name), version TEXT NOT NULL,
                  bundle_sha256 TEXT NOT NULL REFERENCES blobs(sha256), stylesheet_sha256 TEXT REFERENCES blobs(sha256),
                  min_native_version TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (app, version))
                """,
                """
                CREATE TABLE releases (id \(serial), app TEXT NOT NULL REFERENCES apps(name), spec TEXT NOT NULL,
                  previous_id BIGINT, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE themes (version TEXT PRIMARY KEY, major BIGINT NOT NULL,
                  sha256 TEXT NOT NULL REFERENCES blobs(sha256), published BIGINT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE TABLE admin_tokens (id \(serial), sha256 TEXT NOT NULL UNIQUE, label TEXT NOT NULL, created_at BIGINT NOT NULL)",
                "CREATE TABLE generation (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)",
                "INSERT INTO generation (id, value) VALUES (1, 1)",
            ]
        },
        // A version's assets beside its bundle; `folded_path` (ASCII lower case) lets the
        // database itself refuse two paths that one case-insensitive disk would merge.
        Migration(id: 2, name: "version assets") { _ in
            [
                """
                CREATE TABLE app_version_assets (app TEXT NOT NULL, version TEXT NOT NULL, path TEXT NOT NULL,
                  folded_path TEXT NOT NULL, sha256 TEXT NOT NULL REFERENCES blobs(sha256),
                  PRIMARY KEY (app, version, path), UNIQUE (app, version, folded_path),
                  FOREIGN KEY (app, version) REFERENCES app_versions(app, version))
                """,
            ]
        },
        // sync: shared documents, their updates and per-document tokens (docs/sync.md §2.2).
        Migrations.sync,
        // Hot reads across instances: who has seen which generation.
        Migrations.instances,
        // The audit list of admin writes (docs/server.md, "Audit list").
        Migrations.audit,
        // Revoked admin tokens stay revoked across restarts (docs/server.md, "Tokens").
        Migrations.revokedTokens,
        // A version's publisher signature (docs/server.md, "Signed releases").
        Migrations.releaseSignatures,
    ]

    /// Applies every migration not yet recorded. On PostgreSQL an advisory lock makes
    /// instances that start together take turns.
    static func run(on backend: any SQLBackend) async throws {
        let postgres = backend.isPostgres
        try await backend.transaction { db in
            if postgres { try await db.raw("SELECT pg_advisory_xact_lock(727274)").run() }
            try await db.raw("""
                CREATE TABLE IF NOT EXISTS statehub_migrations (id BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """).run()
            let applied = Set(try await db.raw("SELECT id FROM statehub_migrations").all().map { try $0.decode(column: "id", as: Int.self) })
            for migration in all where !applied.contains(migration.id) {
                for statement in migration.statements(postgres) {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                try await db.raw("""
                    INSERT INTO statehub_migrations (id, name, applied_at) VALUES (\(bind: migration.id), \(bind: migration.name), \(bind: Int(Date().timeIntervalSince1970)))
                    """).run()
            }
        }
    }
}
