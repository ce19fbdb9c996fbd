/// Why a ``HostedPage`` could not be set up or could not load a script.
public enum HostedPageError: Error, Sendable, CustomStringConvertible {
    /// Building the page failed before any bundle ran (the runtime or bridge scripts).
    case setUp(String)
    /// A bundle threw, or was stopped by the time limit; `underlying` is the engine's error
    /// (`JavaScriptError` or `EngineError`).
    case bundle(path: String, underlying: any Error)

    public var description: String {
        switch self {
        case .setUp(let why): "the page could not be set up: \(why)"
        case .bundle(let path, let error): "\(path): \(error)"
        }
    }
}
