import JSEngine

/// Where a page's loading stands, as the shell shows it (spinner, error view).
public enum ShellLoadingState: Sendable, Hashable {
    case loading
    /// `didFinishLoading`.
    case finished
    /// `didFailLoading`.
    case failed(message: String, code: String?)

    /// `{"state":"loading"}`, `{"state":"finished"}`, `{"state":"failed","message":…,"code":…}`.
    public var jsonValue: JSONValue {
        switch self {
        case .loading: .object(["state": "loading"])
        case .finished: .object(["state": "finished"])
        case .failed(let message, let code):
            .object(["state": "failed", "message": .string(message), "code": code.map(JSONValue.string) ?? .null])
        }
    }
}
