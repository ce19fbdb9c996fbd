import Foundation
import GRDB

/// The on-disk side of shared documents (docs/sync.md §3.2): one SQLite file per app holding,
/// per document, its client id, a snapshot, and the local updates the server has not yet kept.
///
/// Every write is one SQLite transaction (WAL, `synchronous=NORMAL`: a committed write survives
/// the app being killed; a power cut may lose the last ones). Safe to share between documents
/// and tasks.
public final class DocumentStore: Sendable {
    private let database: DatabaseQueue

    /// What a document had on disk when it was opened.
    struct Opened: Sendable {
        var clientID: Int
        var snapshot: [UInt8]?
        var pending: [(id: Int64, update: [UInt8])]
    }

    /// Opens (or creates) the file at `path`, creating its tables.
    /// - Throws: ``SyncClientError`` `.storage` naming the file and SQLite's reason.
    public init(path: String) throws(SyncClientError) {
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            database = try DatabaseQueue(path: path, configuration: configuration)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("1: documents and pending updates") { db in
                try db.execute(sql: """
                    CREATE TABLE documents (name TEXT PRIMARY KEY NOT NULL, client_id INTEGER NOT NULL, snapshot BLOB);
                    CREATE TABLE pending (id INTEGER PRIMARY KEY AUTOINCREMENT, document TEXT NOT NULL, data BLOB NOT NULL);
                    CREATE INDEX pending_by_document ON pending (document, id);
                    """)
            }
            try migrator.migrate(database)
        } catch {
            throw SyncClientError(.storage("opening \(path): \(error)"))
        }
    }

    /// The document's row, created with a new random client id when missing, and its pending
    /// updates oldest first.
    func open(document name: String) throws(SyncClientError) -> Opened {
        try write("opening \(name)") { db in
            let clientID: Int
            var snapshot: [UInt8]?
            if let row = try Row.fetchOne(db, sql: "SELECT client_id, snapshot FROM documents WHERE name = ?", arguments: [name]) {
                clientID = row["client_id"]
                snapshot = (row["snapshot"] as Data?).map { [UInt8]($0) }
            } else {
                // Yjs's client ids are random 32-bit numbers; kept per document from now on.
                clientID = Int(UInt32.random(in: 0...UInt32.max))
                try db.execute(sql: "INSERT INTO documents (name, client_id) VALUES (?, ?)", arguments: [name, clientID])
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, data FROM pending WHERE document = ? ORDER BY id", arguments: [name])
            let pending = rows.map { row -> (id: Int64, update: [UInt8]) in (row["id"], [UInt8](row["data"] as Data)) }
            return Opened(clientID: clientID, snapshot: snapshot, pending: pending)
        }
    }

    /// Appends a local update to the document's queue; returns its id (ids only grow).
    func appendPending(document name: String, update: [UInt8]) throws(SyncClientError) -> Int64 {
        try write("saving an edit of \(name)") { db in
            try db.execute(sql: "INSERT INTO pending (document, data) VALUES (?, ?)", arguments: [name, Data(update)])
            return db.lastInsertedRowID
        }
    }

    /// Writes the snapshot and, in the same transaction, drops the pending updates it now
    /// holds that the server has kept (ids up to `keptThrough`, or those listed in `kept`).
    func saveSnapshot(document name: String, snapshot: [UInt8], keptThrough: Int64? = nil, kept: [Int64] = []) throws(SyncClientError) {
        try write("saving \(name)") { db in
            try db.execute(sql: "UPDATE documents SET snapshot = ? WHERE name = ?", arguments: [Data(snapshot), name])
            if let keptThrough {
                try db.execute(sql: "DELETE FROM pending WHERE document = ? AND id <= ?", arguments: [name, keptThrough])
            }
            for id in kept {
                try db.execute(sql: "DELETE FROM pending WHERE document = ? AND id = ?", arguments: [name, id])
            }
        }
    }

    /// One pending update's bytes, or nil when it is gone.
    func pendingUpdate(id: Int64) throws(SyncClientError) -> [UInt8]? {
        do {
            return try database.read { db in
                try (Data.fetchOne(db, sql: "SELECT data FROM pending WHERE id = ?", arguments: [id])).map { [UInt8]($0) }
            }
        } catch {
            throw SyncClientError(.storage("reading pending update \(id): \(error)"))
        }
    }

    /// How many local updates of `name` wait for the server.
    public func pendingCount(document name: String) throws(SyncClientError) -> Int {
        do {
            return try database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending WHERE document = ?", arguments: [name]) ?? 0
            }
        } catch {
            throw SyncClientError(.storage("reading \(name): \(error)"))
        }
    }

    private func write<T>(_ what: String, _ body: (Database) throws -> T) throws(SyncClientError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw SyncClientError(.storage("\(what): \(error)"))
        }
    }
}
