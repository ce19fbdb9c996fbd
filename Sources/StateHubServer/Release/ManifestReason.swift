/// Why a user gets the version the manifest names.
public enum ManifestReason: String, Sendable, Hashable, Codable {
    case pinned, user, rollout, variant, stable
    /// The release chose a version that needs a newer shell; this is the newest older one that fits.
    case nativeFallback = "native-fallback"
}
