extension Migrations {
    /// Migration 5 (docs/server.md, "Audit list"): one row per admin write, written in the
    /// write's own transaction. The token's label is copied, so a row still names its author
    /// after the token is deleted.
    static let audit = Migration(id: 5, name: "audit list") { postgres in
        let serial = postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        return [
            """
            CREATE TABLE audit_log (id \(serial), at BIGINT NOT NULL, token_id BIGINT NOT NULL, token_label TEXT NOT NULL,
              action TEXT NOT NULL, target TEXT NOT NULL, before_state TEXT, after_state TEXT)
            """,
        ]
    }
}
