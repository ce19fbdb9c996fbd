/// The server's answer to `GET /apps/{app}/manifest` (docs/server.md, "Manifest").
public struct Manifest: Sendable, Hashable, Codable {
    public struct Asset: Sendable, Hashable, Codable {
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
    public var minNativeVersion: String
}
