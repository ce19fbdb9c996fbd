extension AuditState {
    /// Explicit users listed per side of a release row, at most.
    static let maxListedUsers = 20

    /// The two sides of a release change as its audit row keeps them (docs/server.md, "Audit list"):
    /// the stable version and the arms whole (at most two), how many explicit users each side names,
    /// and of those only the ones the change added, removed or moved to another version — at most
    /// ``maxListedUsers``, by id, `usersChanged` counting them all. So a row stays a few KB however
    /// many users the release names (up to `ReleaseSpec.maxUsers`), and still says what changed for
    /// whom; before, each row held both releases whole. `before` is `nil` for an
    /// app's first release: the side is then empty ("no release").
    static func releaseChange(from before: ReleaseSpec?, to after: ReleaseSpec) -> (before: AuditState, after: AuditState) {
        let old = before?.users ?? [:]
        let changed = Set(old.keys).union(after.users.keys).filter { old[$0] != after.users[$0] }.sorted()
        let listed = changed.prefix(maxListedUsers)
        func kept(_ spec: ReleaseSpec) -> ReleaseSpec {
            var spec = spec
            spec.users = Dictionary(uniqueKeysWithValues: listed.compactMap { id in spec.users[id].map { (id, $0) } })
            return spec
        }
        let beforeSide = before.map { AuditState(release: kept($0), userCount: $0.users.count) } ?? AuditState()
        return (beforeSide, AuditState(release: kept(after), userCount: after.users.count, usersChanged: changed.count))
    }
}
