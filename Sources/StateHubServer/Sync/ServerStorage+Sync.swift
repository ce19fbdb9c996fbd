import Foundation
import SharedDocument
import SQLKit

/// A document as storage holds it: its snapshot, then its updates after the snapshot in id order.
struct StoredSyncDocument: Sendable {
    var snapshot: [UInt8]?
    var updates: [(id: Int, data: [UInt8])]
    var updateBytes: Int { updates.reduce(0) { $0 + $1.data.count } }
}

/// What a token may do with a document (docs/sync.md §2.3).
public enum DocumentAccess: String, Sendable, Codable {
    case read
    case readWrite = "read-write"
}

/// A per-document token's row, without the token (only its hash is kept).
struct StoredDocumentToken: Sendable {
    var id: Int
    var document: String
    var access: DocumentAccess
    var label: String
    var createdAt: Int
}

extension ServerStorage {
    /// The channel every instance listens on (docs/sync.md §2.4).
    static let syncChannel = "statehub_sync"

    private static var syncNow: Int { Int(Date().timeIntervalSince1970) }

    /// PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more.
    static let maxNotifyPayload = 7_900

    /// Sends `payload` on the sync channel (PostgreSQL only).
    func notifySync(_ payload: String) async throws {
        try await backend.read { db in
            try await db.raw("SELECT pg_notify(\(bind: Self.syncChannel), \(bind: payload))").run()
        }
    }

    /// The snapshot and the updates after it; an empty document when it was never written.
    func loadSyncDocument(_ name: String) async throws -> StoredSyncDocument {
        try await backend.read { db in try await Self.readSyncDocument(db, name) }
    }

    private static func readSyncDocument(_ db: any SQLDatabase, _ name: String) async throws -> StoredSyncDocument {
        let head = try await db.raw("SELECT snapshot, snapshot_through FROM sync_documents WHERE name = \(bind: name)").first()
        // An empty snapshot (a document whose first updates are not compacted yet) is none.
        let snapshot = try head.map { [UInt8](try $0.decode(column: "snapshot", as: Data.self)) }.flatMap { $0.isEmpty ? nil : $0 }
        let through = try head?.decode(column: "snapshot_through", as: Int.self) ?? 0
        let rows = try await db.raw("""
            SELECT id, data FROM sync_updates WHERE document = \(bind: name) AND id > \(bind: through) ORDER BY id
            """).all()
        let updates = try rows.map { row in
            (id: try row.decode(column: "id", as: Int.self), data: [UInt8](try row.decode(column: "data", as: Data.self)))
        }
        return StoredSyncDocument(snapshot: snapshot, updates: updates)
    }

    /// Appends `updates` to `name` in one transaction (one commit for the whole batch) and, on
    /// PostgreSQL, announces each with `NOTIFY` (delivered at commit). Returns the new ids.
    func appendSyncUpdates(_ name: String, _ updates: [[UInt8]], instance: String) async throws -> [Int] {
        let postgres = backend.isPostgres
        return try await backend.transaction { db in
            try await db.raw("""
                INSERT INTO sync_documents (name, snapshot, snapshot_through, created_at)
                VALUES (\(bind: name), \(bind: Data()), 0, \(bind: Self.syncNow)) ON CONFLICT (name) DO NOTHING
                """).run()
            var ids: [Int] = []
            ids.reserveCapacity(updates.count)
            for update in updates {
                guard let row = try await db.raw("""
                    INSERT INTO sync_updates (document, data, created_at) VALUES (\(bind: name), \(bind: Data(update)), \(bind: Self.syncNow)) RETURNING id
                    """).first() else { throw StorageError("inserting an update returned no id") }
                let id = try row.decode(column: "id", as: Int.self)
                ids.append(id)
                if postgres {
                    try await db.raw("SELECT pg_notify(\(bind: Self.syncChannel), \(bind: "\(instance) \(name) \(id)"))").run()
                }
            }
            return ids
        }
    }

    /// One update by id, or `nil` when it is gone (compacted into the snapshot).
    func syncUpdate(id: Int) async throws -> [UInt8]? {
        try await backend.read { db in
            try await db.raw("SELECT data FROM sync_updates WHERE id = \(bind: id)").first()
                .map { [UInt8](try $0.decode(column: "data", as: Data.self)) }
        }
    }

    /// Merges the snapshot and every update after it into a new snapshot and deletes those
    /// updates, in one transaction (docs/sync.md §2.2). Returns how many updates were folded.
    @discardableResult
    func compactSyncDocument(_ name: String) async throws -> Int {
        let postgres = backend.isPostgres
        return try await backend.transaction { db in
            // PostgreSQL: instances compacting one document at once take turns on its row.
            if postgres { try await db.raw("SELECT name FROM sync_documents WHERE name = \(bind: name) FOR UPDATE").run() }
            let stored = try await Self.readSyncDocument(db, name)
            guard let last = stored.updates.last?.id else { return 0 }
            let merged = try Updates.merge((stored.snapshot.map { [$0] } ?? []) + stored.updates.map(\.data))
            try await db.raw("""
                UPDATE sync_documents SET snapshot = \(bind: Data(merged)), snapshot_through = \(bind: last) WHERE name = \(bind: name)
                """).run()
            try await db.raw("DELETE FROM sync_updates WHERE document = \(bind: name) AND id <= \(bind: last)").run()
            return stored.updates.count
        }
    }

    /// Whether `name` was ever written, with its sizes.
    func syncDocumentSizes(_ name: String) async throws -> (updates: Int, updateBytes: Int, snapshotBytes: Int)? {
        try await backend.read { db in
            guard try await db.raw("SELECT name FROM sync_documents WHERE name = \(bind: name)").first() != nil else { return nil }
            let stored = try await Self.readSyncDocument(db, name)
            return (stored.updates.count, stored.updateBytes, stored.snapshot?.count ?? 0)
        }
    }

    // MARK: Document tokens

    func addDocumentToken(hash: String, document: String, access: DocumentAccess, label: String, by author: AdminIdentity?) async throws -> Int {
        try await backend.transaction { db in
            guard let row = try await db.raw("""
                INSERT INTO document_tokens (sha256, document, access, label, created_at)
                VALUES (\(bind: hash), \(bind: document), \(bind: access.rawValue), \(bind: label), \(bind: Self.syncNow)) RETURNING id
                """).first() else { throw StorageError("inserting a document token returned no id") }
            let id = try row.decode(column: "id", as: Int.self)
            try await Self.audit(db, by: author, .documentTokenCreate, "\(document) \(id)", before: nil,
                                 after: AuditState(label: label, access: access.rawValue))
            return id
        }
    }

    func documentTokens(document: String) async throws -> [StoredDocumentToken] {
        try await backend.read { db in
            try await db.raw("""
                SELECT id, document, access, label, created_at FROM document_tokens WHERE document = \(bind: document) ORDER BY id
                """).all().map(Self.documentToken(from:))
        }
    }

    /// The document token whose hash is `hash`, or `nil`.
    func documentToken(hash: String) async throws -> StoredDocumentToken? {
        try await backend.read { db in
            try await db.raw("""
                SELECT id, document, access, label, created_at FROM document_tokens WHERE sha256 = \(bind: hash)
                """).first().map(Self.documentToken(from:))
        }
    }

    /// Deletes token `id` of `document`; `false` when there is none. On PostgreSQL other
    /// instances hear of it (`r <id>`) and close its connections.
    func deleteDocumentToken(document: String, id: Int, by author: AdminIdentity?) async throws -> Bool {
        let postgres = backend.isPostgres
        return try await backend.transaction { db in
            guard let row = try await db.raw("SELECT label, access FROM document_tokens WHERE id = \(bind: id) AND document = \(bind: document)")
                .first()
            else { return false }
            try await db.raw("DELETE FROM document_tokens WHERE id = \(bind: id)").run()
            try await Self.audit(db, by: author, .documentTokenDelete, "\(document) \(id)",
                                 before: AuditState(label: try row.decode(column: "label", as: String.self),
                                                    access: try row.decode(column: "access", as: String.self)), after: nil)
            if postgres { try await db.raw("SELECT pg_notify(\(bind: Self.syncChannel), \(bind: "r \(id)"))").run() }
            return true
        }
    }

    private static func documentToken(from row: any SQLRow) throws -> StoredDocumentToken {
        let access = try row.decode(column: "access", as: String.self)
        guard let parsed = DocumentAccess(rawValue: access) else { throw StorageError("document token with unknown access \(access)") }
        return StoredDocumentToken(id: try row.decode(column: "id", as: Int.self),
                                   document: try row.decode(column: "document", as: String.self),
                                   access: parsed, label: try row.decode(column: "label", as: String.self),
                                   createdAt: try row.decode(column: "created_at", as: Int.self))
    }
}
