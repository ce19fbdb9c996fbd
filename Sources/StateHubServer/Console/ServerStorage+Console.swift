import Foundation
import SQLKit

/// What the console lists that the read snapshot does not keep: upload times and the history of
/// releases (docs/console.md).
/// Read straight from the database on each request; the console is not a hot path.
extension ServerStorage {
    struct ConsoleVersionRow: Sendable, Hashable {
        var version: String
        var createdAt: Int
    }

    struct ConsoleThemeRow: Sendable, Hashable {
        var version: String
        var major: Int
        var sha256: String
        var published: Bool
        var createdAt: Int
    }

    struct ConsoleReleaseRow: Sendable, Hashable {
        var id: Int
        /// The release JSON as stored (`ReleaseSpec`, sorted keys).
        var spec: String
        var previousID: Int?
        var createdAt: Int
        var current: Bool
    }

    /// The newest `limit` releases of `app`, newest first; `current` marks the app's release.
    func consoleReleases(app: String, limit: Int) async throws -> [ConsoleReleaseRow] {
        try await backend.read { db in
            let currentID = try await db.raw("SELECT release_id FROM apps WHERE name = \(bind: app)").first()?
                .decode(column: "release_id", as: Int?.self)
            return try await db.raw("""
                SELECT id, spec, previous_id, created_at FROM releases WHERE app = \(bind: app) ORDER BY id DESC LIMIT \(bind: limit)
                """).all().map { row in
                let id = try row.decode(column: "id", as: Int.self)
                return ConsoleReleaseRow(id: id, spec: try row.decode(column: "spec", as: String.self),
                                         previousID: try row.decode(column: "previous_id", as: Int?.self),
                                         createdAt: try row.decode(column: "created_at", as: Int?.self) ?? 0, current: id == currentID)
            }
        }
    }

    /// Each version of `app` with the time it was uploaded (seconds since 1970).
    func consoleVersionTimes(app: String) async throws -> [ConsoleVersionRow] {
        try await backend.read { db in
            try await db.raw("SELECT version, created_at FROM app_versions WHERE app = \(bind: app)").all().map { row in
                ConsoleVersionRow(version: try row.decode(column: "version", as: String.self),
                                  createdAt: try row.decode(column: "created_at", as: Int?.self) ?? 0)
            }
        }
    }

    /// Every uploaded theme, published or not.
    func consoleThemes() async throws -> [ConsoleThemeRow] {
        try await backend.read { db in
            try await db.raw("SELECT version, major, sha256, published, created_at FROM themes").all().map { row in
                ConsoleThemeRow(version: try row.decode(column: "version", as: String.self),
                                major: try row.decode(column: "major", as: Int.self),
                                sha256: try row.decode(column: "sha256", as: String.self),
                                published: try row.decode(column: "published", as: Int.self) != 0,
                                createdAt: try row.decode(column: "created_at", as: Int?.self) ?? 0)
            }
        }
    }
}
