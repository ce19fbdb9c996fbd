/// The entity tag of an app's current release, for `If-Match` on the writes that replace it
/// (docs/server.md, "Saving over a concurrent change"): `"release-<id>"`, the id of the release
/// row now current (every save and rollback writes a new row, so the tag changes with each), or
/// `"release-none"` before the first release.
enum ReleaseTag {
    static func tag(_ releaseID: Int?) -> String { "\"release-\(releaseID.map(String.init) ?? "none")\"" }

    /// Whether the release now current satisfies the request's `If-Match` (RFC 9110 §13.1.1:
    /// strong comparison, `*` matches since the app exists). No header: nothing to check, the
    /// API's callers (`curl`, pipelines) write as before.
    static func satisfies(_ ifMatch: String?, currentID: Int?) -> Bool {
        guard let ifMatch else { return true }
        let current = tag(currentID)
        // Strong comparison: a weak tag (`W/"…"`) never matches.
        return EntityTag.listed(ifMatch).contains { $0 == "*" || $0 == current[...] }
    }
}
