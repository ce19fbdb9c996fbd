import Foundation
import Logging
import SQLiteKit
import SQLKit

/// SQLite through sqlite-kit: one connection to `<directory>/statehub.sqlite` in WAL mode,
/// used one operation at a time.
final class SQLiteBackend: SQLBackend {
    let isPostgres = false
    private let connection: SQLiteConnection
    private let lock = AsyncLock()

    private init(connection: SQLiteConnection) { self.connection = connection }

    static func open(directory: URL, logger: Logger) async throws -> SQLiteBackend {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StorageError("cannot create the data folder \(directory.path): \(error.localizedDescription)")
        }
        let path = directory.appendingPathComponent("statehub.sqlite").path
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StorageError("cannot open \(path): \(error)")
        }
        let backend = SQLiteBackend(connection: connection)
        let db = connection.sql(queryLogLevel: nil)
        try await db.raw("PRAGMA journal_mode=WAL").run()
        try await db.raw("PRAGMA foreign_keys=ON").run()
        try await db.raw("PRAGMA busy_timeout=5000").run()
        return backend
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let db = connection.sql(queryLogLevel: nil)
        return try await lock.withLock { try await body(db) }
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let db = connection.sql(queryLogLevel: nil)
        return try await lock.withLock { try await db.inTransaction(begin: "BEGIN IMMEDIATE", body) }
    }

    func shutdown() async {
        try? await connection.close()
    }
}
