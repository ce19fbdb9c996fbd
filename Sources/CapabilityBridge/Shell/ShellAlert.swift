import JSEngine

/// An alert a page asked for (`showAlert`).
public struct ShellAlert: Sendable, Hashable {
    public var title: String?
    public var message: String
    /// Never empty: `["OK"]` when the page gave none.
    public var buttons: [String]

    public init(title: String?, message: String, buttons: [String]) {
        self.title = title
        self.message = message
        self.buttons = buttons.isEmpty ? ["OK"] : buttons
    }

    /// `{"title":…,"message":…,"buttons":[…]}`.
    public var jsonValue: JSONValue {
        .object(["title": title.map(JSONValue.string) ?? .null, "message": .string(message),
                 "buttons": .array(buttons.map(JSONValue.string))])
    }
}
