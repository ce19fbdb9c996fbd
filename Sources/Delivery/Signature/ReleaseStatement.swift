import Foundation
import MicroAppAssets
import StyleTokens

/// The text a publisher signs for one version: app, version, `minNativeVersion` and the
/// SHA-256 and size of the bundle, the stylesheet and every asset by path (docs/server.md,
/// "Signed releases"). Built only from checked fields, so one byte string stands for one release.
public struct ReleaseStatement: Sendable, Hashable {
    /// One file's digest: lowercase hex SHA-256 and size in bytes.
    public struct Digest: Sendable, Hashable {
        public var sha256: String
        public var size: Int

        public init(sha256: String, size: Int) {
            self.sha256 = sha256
            self.size = size
        }

        /// The digest of `data`.
        public init(of data: Data) {
            self.init(sha256: DeliveryDisk.sha256Hex(data), size: data.count)
        }
    }

    /// The first line: the format's name and version.
    public static let formatLine = "statehub-release-v1"

    public let app: String
    public let version: String
    public let minNativeVersion: String
    public let bundle: Digest
    public let stylesheet: Digest?
    /// Sorted by path in byte order.
    public let assets: [(path: String, digest: Digest)]

    /// Checks every field against "Names and values"; the assets may come in any order.
    public init(app: String, version: String, minNativeVersion: String, bundle: Digest, stylesheet: Digest?,
                assets: [(path: String, digest: Digest)]) throws(ReleaseSigningError) {
        guard MicroAppDelivery.isValidAppName(app) else { throw .invalidField(field: "app", reason: "\(app.prefix(80).debugDescription) is not an app name") }
        for (field, value) in [("version", version), ("minNativeVersion", minNativeVersion)] {
            guard value.utf8.count <= 64, (try? SemanticVersion(parsing: value)) != nil else {
                throw .invalidField(field: field, reason: "\(value.prefix(80).debugDescription) is not a semantic version")
            }
        }
        try Self.check(bundle, "bundle")
        if let stylesheet { try Self.check(stylesheet, "stylesheet") }
        var paths: [AssetPath] = []
        for asset in assets {
            do {
                paths.append(try AssetPath(asset.path))
            } catch {
                throw .invalidField(field: "asset \(asset.path.prefix(80).debugDescription)", reason: "\(error)")
            }
            try Self.check(asset.digest, "asset \(asset.path)")
        }
        if let collision = AssetPath.collisions(in: paths).first { throw .invalidField(field: "assets", reason: "\(collision)") }
        self.app = app
        self.version = version
        self.minNativeVersion = minNativeVersion
        self.bundle = bundle
        self.stylesheet = stylesheet
        self.assets = assets.sorted { Array($0.path.utf8).lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The statement a manifest describes (the device's side).
    public init(manifest: Manifest) throws(ReleaseSigningError) {
        try self.init(app: manifest.app, version: manifest.version, minNativeVersion: manifest.minNativeVersion,
                      bundle: Digest(sha256: manifest.bundle.sha256, size: manifest.bundle.size),
                      stylesheet: manifest.stylesheet.map { Digest(sha256: $0.sha256, size: $0.size) },
                      assets: manifest.assets.map { (path: $0.path, digest: Digest(sha256: $0.sha256, size: $0.size)) })
    }

    /// The UTF-8 text that is signed: one field a line, each ending in LF.
    public var text: String {
        var lines = [Self.formatLine, "app \(app)", "version \(version)", "minNativeVersion \(minNativeVersion)",
                     "bundle \(bundle.sha256) \(bundle.size)", "stylesheet " + (stylesheet.map { "\($0.sha256) \($0.size)" } ?? "-")]
        lines += assets.map { "asset \($0.path) \($0.digest.sha256) \($0.digest.size)" }
        return lines.map { $0 + "\n" }.joined()
    }

    public var bytes: Data { Data(text.utf8) }

    public static func == (left: ReleaseStatement, right: ReleaseStatement) -> Bool { left.text == right.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    private static func check(_ digest: Digest, _ field: String) throws(ReleaseSigningError) {
        guard ReleaseSignatureForm.isLowercaseHex(digest.sha256, count: 64) else {
            throw .invalidField(field: field, reason: "sha256 \(digest.sha256.prefix(80).debugDescription) is not 64 lowercase hex digits")
        }
        guard digest.size >= 0 else { throw .invalidField(field: field, reason: "size \(digest.size) is negative") }
    }
}
