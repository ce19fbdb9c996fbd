import Foundation

/// A stored blob's address and size.
public struct AssetRef: Sendable, Hashable, Codable {
    public var sha256: String
    public var size: Int
}

/// One asset of a version: its path (valid by `AssetPath`'s rules) and its blob.
struct StoredAsset: Sendable, Hashable {
    var path: String
    var ref: AssetRef
}

/// One uploaded version of a micro-app as the database has it.
struct StoredVersion: Sendable, Hashable {
    var app: String
    var version: String
    var bundle: AssetRef
    var stylesheet: AssetRef?
    var minNativeVersion: String
    /// The publisher's signature, `nil` for an unsigned version.
    var signature: VersionSignature?
    /// Sorted by path (byte order), as the manifest lists them.
    var assets: [StoredAsset] = []
    /// `assets` by path, for the asset route.
    var assetsByPath: [String: AssetRef] = [:]
}

/// An asset as uploaded: its checked path, folded path and bytes.
struct UploadedAsset: Sendable {
    var path: String
    var folded: String
    var data: Data
}

/// One app row with its current release.
struct StoredApp: Sendable, Hashable {
    var name: String
    var releaseID: Int?
    var release: ReleaseSpec?
    var pinnedVersion: String?
}

/// One uploaded theme.
struct StoredTheme: Sendable, Hashable {
    var version: String
    var major: Int
    var sha256: String
    var published: Bool
}

/// Everything mutable, read at one generation.
struct StoredState: Sendable {
    var generation: Int
    var apps: [StoredApp]
    var versions: [StoredVersion]
    var themes: [StoredTheme]
}

/// How an upload of immutable content went.
enum UploadOutcome: Sendable, Hashable {
    case created
    /// The same bytes were already there under that name.
    case unchanged
    /// Other bytes are there under that name.
    case conflict
}
