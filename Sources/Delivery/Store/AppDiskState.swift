/// What `<root>/<app>/state.json` remembers.
struct AppDiskState: Sendable, Hashable, Codable {
    /// The version that last loaded without throwing.
    var lastGood: String?
    /// The manifest of `lastGood` (what an offline start loads).
    var lastGoodManifest: Manifest?
    /// The last manifest the server sent.
    var cachedManifest: Manifest?
    /// Versions that threw while loading here; never loaded again.
    var failed: [String] = []
    /// Installed versions, oldest first.
    var installed: [String] = []
    /// The manifest of each installed version, so a new version reuses a file whose digest
    /// matches one already on disk. Optional: a `state.json` written before it decodes.
    var installedManifests: [String: Manifest]?
}
