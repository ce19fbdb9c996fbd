extension Migrations {
    /// A version's publisher signature (docs/server.md, "Signed releases"): both columns `NULL`
    /// for an unsigned version, which every version uploaded before this migration is.
    static let releaseSignatures = Migration(id: 7, name: "release signatures") { _ in
        [
            "ALTER TABLE app_versions ADD COLUMN signature_key_id TEXT",
            "ALTER TABLE app_versions ADD COLUMN signature TEXT",
        ]
    }
}
