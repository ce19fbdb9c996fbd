import JSEngine

/// A button on the right of the native header (`configNative` `nav_item_right`).
///
/// Invariant (checked when decoding the payload): `title` or `iconURL` is set.
public struct ShellHeaderItem: Sendable, Hashable {
    public var title: String?
    public var iconURL: String?
    /// The event name sent to the page when tapped.
    public var action: String
    /// The event's data (any JSON; `{}` when the page gave none or `nil` at init), key order kept.
    public var parameters: JSONValue

    public init(title: String?, iconURL: String?, action: String, parameters: JSONValue? = nil) {
        self.title = title
        self.iconURL = iconURL
        self.action = action
        self.parameters = parameters ?? .object([:])
    }

    /// `{"title":…,"icon_url":…,"action":…,"action_parameters":…}` (the wire names).
    public var jsonValue: JSONValue {
        .object(["title": title.map(JSONValue.string) ?? .null, "icon_url": iconURL.map(JSONValue.string) ?? .null,
                 "action": .string(action), "action_parameters": parameters])
    }
}
