/// What the audit list shows of one side of a change (before or after), stored as JSON text. Which
/// keys an action fills is listed in docs/server.md ("Audit list"); an absent key means "none"
/// (no release, no pin, no published theme of that major).
struct AuditState: Sendable, Hashable, Codable {
    /// The app's release (`release.set`, `release.rollback`): its stable version and arms whole, and
    /// of its explicit users only those the change touched (``releaseChange(from:to:)``).
    var release: ReleaseSpec?
    /// How many explicit users the release names (`release.*`).
    var userCount: Int?
    /// How many explicit users the change added, removed or moved to another version (`release.*`,
    /// on the after side); `release.users` lists at most ``maxListedUsers`` of them.
    var usersChanged: Int?
    /// The app's pin (`pin.set`, `pin.lift`).
    var pinnedVersion: String?
    /// Whether the theme is published (`theme.publish`, `theme.unpublish`).
    var published: Bool?
    /// The theme `/themes/current` answers for that major version.
    var current: String?
    /// The uploaded bytes (`version.upload`: the bundle; `theme.upload`: the theme).
    var sha256: String?
    /// Bytes: the theme, or a version's bundle, stylesheet and assets together.
    var size: Int?
    var minNativeVersion: String?
    var assetCount: Int?
    /// A token's label (`token.create`, `token.delete`, `document-token.*`).
    var label: String?
    /// A document token's access, `read` or `read-write` (`document-token.*`).
    var access: String?

    init(release: ReleaseSpec? = nil, userCount: Int? = nil, usersChanged: Int? = nil, pinnedVersion: String? = nil,
         published: Bool? = nil, current: String? = nil, sha256: String? = nil, size: Int? = nil, minNativeVersion: String? = nil,
         assetCount: Int? = nil, label: String? = nil, access: String? = nil) {
        self.release = release
        self.userCount = userCount
        self.usersChanged = usersChanged
        self.pinnedVersion = pinnedVersion
        self.published = published
        self.current = current
        self.sha256 = sha256
        self.size = size
        self.minNativeVersion = minNativeVersion
        self.assetCount = assetCount
        self.label = label
        self.access = access
    }
}
