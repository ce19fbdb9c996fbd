/// `doAction` payload: `action` ∈ `back`, `reload`, `share`; `share` takes `text` and `url`.
public struct DoActionPayload: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable { case back, reload, share }
    public var action: Kind
    public var text: String?
    public var url: String?

    public var shellAction: ShellAction {
        switch action {
        case .back: .back
        case .reload: .reload
        case .share: .share(text: text, url: url)
        }
    }
}
