/// What a `StateHubServer` may be tuned with. Defaults are the documented ones (docs/server.md).
public struct ServerConfiguration: Sendable {
    /// Largest version upload (bundle + stylesheet as JSON), bytes.
    public var maxUploadBytes: Int
    /// Largest theme upload, bytes.
    public var maxThemeBytes: Int
    /// Largest other admin body, bytes.
    public var maxSmallBodyBytes: Int
    /// The one origin allowed to call `/admin/…` from a browser (CORS); `nil`: none.
    public var adminOrigin: String?
    /// Memory for blob bytes (bundles, stylesheets, themes), bytes.
    public var cacheBytes: Int

    public init(maxUploadBytes: Int = 8 << 20, maxThemeBytes: Int = 1 << 20, maxSmallBodyBytes: Int = 64 << 10,
                adminOrigin: String? = nil, cacheBytes: Int = 256 << 20) {
        self.maxUploadBytes = maxUploadBytes
        self.maxThemeBytes = maxThemeBytes
        self.maxSmallBodyBytes = maxSmallBodyBytes
        self.adminOrigin = adminOrigin
        self.cacheBytes = cacheBytes
    }
}
