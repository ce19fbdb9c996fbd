/// The outcome of resolving a release for one user.
public struct ManifestChoice: Sendable, Hashable {
    public var version: String
    public var reason: ManifestReason
    public var variant: String?
    public var bucket: Int

    public init(version: String, reason: ManifestReason, variant: String? = nil, bucket: Int) {
        self.version = version
        self.reason = reason
        self.variant = variant
        self.bucket = bucket
    }
}
