/// The server's answer to `GET /apps/{app}/manifest` (docs/server.md, "Manifest").
public struct Manifest: Sendable, Hashable, Codable {
    public struct Asset: Sendable, Hashable, Codable {
        public var url: String
        public var sha256: String
        public var size: Int
    }

    /// One of the version's assets: where it goes in the version's folder, and its bytes' hash.
    public struct PathAsset: Sendable, Hashable, Codable {
        /// Relative to the version's folder (docs/server.md, "Assets": checked with `AssetPath`
        /// before it names a file).
        public var path: String
        public var url: String
        public var sha256: String
        public var size: Int
    }

    public var app: String
    public var version: String
    public var reason: String
    public var variant: String?
    public var bucket: Int
    public var bundle: Asset
    public var stylesheet: Asset?
    /// Sorted by path; empty when the version ships none.
    public var assets: [PathAsset]
    public var minNativeVersion: String
    /// The publisher's signature of this version's ``ReleaseStatement``; `nil` when unsigned
    /// (docs/server.md, "Signed releases").
    public var signature: ReleaseSignature?

    private enum CodingKeys: String, CodingKey {
        case app, version, reason, variant, bucket, bundle, stylesheet, assets, minNativeVersion, signature
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        app = try container.decode(String.self, forKey: .app)
        version = try container.decode(String.self, forKey: .version)
        reason = try container.decode(String.self, forKey: .reason)
        variant = try container.decodeIfPresent(String.self, forKey: .variant)
        bucket = try container.decode(Int.self, forKey: .bucket)
        bundle = try container.decode(Asset.self, forKey: .bundle)
        stylesheet = try container.decodeIfPresent(Asset.self, forKey: .stylesheet)
        // A manifest cached in state.json by an older Delivery has no `assets`: a version without any.
        assets = try container.decodeIfPresent([PathAsset].self, forKey: .assets) ?? []
        minNativeVersion = try container.decode(String.self, forKey: .minNativeVersion)
        signature = try container.decodeIfPresent(ReleaseSignature.self, forKey: .signature)
    }
}
