extension Migrations {
    /// Migration 6 (docs/server.md, "Tokens"): the hashes of admin tokens deleted with
    /// `DELETE /admin/tokens/{id}`. The first token comes back from `STATEHUB_ADMIN_TOKEN` or
    /// `--admin-token-file` at every start; a revoked one must stay revoked, so installing it again
    /// looks here first.
    static let revokedTokens = Migration(id: 6, name: "revoked admin tokens") { _ in
        ["CREATE TABLE revoked_admin_tokens (sha256 TEXT PRIMARY KEY, revoked_at BIGINT NOT NULL)"]
    }
}
