import JSEngine

/// An entry of a shell's navigation stack.
public enum ShellDestination: Sendable, Hashable {
    /// A web page (`gotoWebview`), with the title to show until the page sets its own.
    case web(url: String, title: String?)
    /// A native page (`gotoNative`), by name, with its parameters (a JSON object).
    case native(page: String, params: JSONValue)

    /// `{"kind":"web","url":…,"title":…}` / `{"kind":"native","page":…,"params":…}`.
    public var jsonValue: JSONValue {
        switch self {
        case .web(let url, let title):
            .object(["kind": "web", "url": .string(url), "title": title.map(JSONValue.string) ?? .null])
        case .native(let page, let params):
            .object(["kind": "native", "page": .string(page), "params": params])
        }
    }
}
