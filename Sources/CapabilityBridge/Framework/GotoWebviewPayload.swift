/// `gotoWebview` payload: `url` required (https, allowlisted host: checked before any
/// handler runs), `title` optional.
public struct GotoWebviewPayload: Codable, Sendable, Hashable {
    public var url: String
    public var title: String?
}
