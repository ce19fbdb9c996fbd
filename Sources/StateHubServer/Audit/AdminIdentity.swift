/// Who made an admin request, as the server knows it: the admin token it carried, by the id and
/// label stored with that token's hash (docs/server.md, "Audit list"). Set by
/// `AdminAuthMiddleware` for the rest of the request; the storage writes it into the audit row
/// of each change.
struct AdminIdentity: Sendable, Hashable, Codable {
    /// The `admin_tokens` row (`POST /admin/tokens` answers it as `id`).
    var tokenID: Int
    /// The label given when the token was made; the first token's is `initial`.
    var label: String

    init(tokenID: Int, label: String) {
        self.tokenID = tokenID
        self.label = label
    }

    /// The identity of the admin request this task serves; `nil` outside one. A task local
    /// because the router's context type is generic and shared with routes that have no admin.
    @TaskLocal static var current: AdminIdentity?
}
