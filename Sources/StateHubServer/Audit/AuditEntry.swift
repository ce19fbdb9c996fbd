/// One row of the audit list (`GET /admin/console/audit`, docs/server.md "Audit list").
struct AuditEntry: Sendable, Hashable, Codable {
    /// What an admin write changed.
    enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        case versionUpload = "version.upload"
        case themeUpload = "theme.upload"
        case themePublish = "theme.publish"
        case themeUnpublish = "theme.unpublish"
        case releaseSet = "release.set"
        case releaseRollback = "release.rollback"
        case pinSet = "pin.set"
        case pinLift = "pin.lift"
        case tokenCreate = "token.create"
        case tokenDelete = "token.delete"
        case documentTokenCreate = "document-token.create"
        case documentTokenDelete = "document-token.delete"
    }

    /// Increasing: a later write has a larger id (the page's `before` cursor).
    var id: Int
    /// Seconds since 1970, the server's clock.
    var at: Int
    var author: AdminIdentity
    var action: Action
    /// What was changed: `app version` for an upload, the app for a release or pin, the theme's
    /// version, or the token's id.
    var target: String
    /// `nil` when the thing did not exist before (an upload, a new token).
    var before: AuditState?
    /// `nil` when it no longer exists (a deleted token).
    var after: AuditState?
}
