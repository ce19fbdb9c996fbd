import JSEngine

/// A `doAction` request.
public enum ShellAction: Sendable, Hashable {
    /// Pop the top of the navigation stack (or leave the micro-app when at its root).
    case back
    /// Reload the current page.
    case reload
    /// Open the system share sheet.
    case share(text: String?, url: String?)

    /// `{"action":"back"}`, `{"action":"share","text":…,"url":…}`.
    public var jsonValue: JSONValue {
        switch self {
        case .back: .object(["action": "back"])
        case .reload: .object(["action": "reload"])
        case .share(let text, let url):
            .object(["action": "share", "text": text.map(JSONValue.string) ?? .null, "url": url.map(JSONValue.string) ?? .null])
        }
    }
}
