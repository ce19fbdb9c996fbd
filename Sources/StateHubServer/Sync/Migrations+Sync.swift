extension Migrations {
    /// Migration 3 (docs/sync.md §2.2): a document's snapshot, its updates after the snapshot,
    /// and per-document tokens (hashed, like admin tokens).
    static let sync = Migration(id: 3, name: "shared documents") { postgres in
        let serial = postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        let bytes = postgres ? "BYTEA" : "BLOB"
        return [
            """
            CREATE TABLE sync_documents (name TEXT PRIMARY KEY, snapshot \(bytes) NOT NULL,
              snapshot_through BIGINT NOT NULL, created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE sync_updates (id \(serial), document TEXT NOT NULL REFERENCES sync_documents(name),
              data \(bytes) NOT NULL, created_at BIGINT NOT NULL)
            """,
            "CREATE INDEX sync_updates_document ON sync_updates (document, id)",
            """
            CREATE TABLE document_tokens (id \(serial), sha256 TEXT NOT NULL UNIQUE, document TEXT NOT NULL,
              access TEXT NOT NULL, label TEXT NOT NULL, created_at BIGINT NOT NULL)
            """,
        ]
    }
}
