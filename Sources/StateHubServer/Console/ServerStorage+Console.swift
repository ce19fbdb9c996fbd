import Foundation
import SQLKit

/// What the console lists that the read snapshot does not keep: upload times (docs/console.md).
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
