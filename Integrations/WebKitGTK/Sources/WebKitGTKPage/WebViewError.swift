/// What went wrong with a web view page (docs/webview.md).
public enum WebViewError: Error, Sendable, Equatable, CustomStringConvertible {
    /// GTK could not open a display: no X server or Wayland compositor (use `xvfb-run -a`).
    case noDisplay
    /// A `JavaScriptEngine` (or a `HostedPage`, a `PagePool`) started in this process before the
    /// first web view, and made its own thread WTF's main thread, which WebKit needs for itself:
    /// call `GTKMainLoop.start()` before making any engine (docs/webview.md, "Engines in the
    /// same process"). Web views cannot start in this process any more.
    case engineStartedFirst
    /// The page is gone (closed, or its web process ended); `reason` says how.
    case pageGone(pageID: String, reason: WebViewPage.CloseReason)
    /// Loading the document failed.
    case loadFailed(pageID: String, uri: String, message: String)
    /// A script threw, or could not be run.
    case scriptFailed(pageID: String, message: String)
    /// A script's result is not JSON (a function, a symbol, a cycle…).
    case resultNotJSON(pageID: String, message: String)
    /// WebKit refused a message channel name.
    case channelRefused(pageID: String, channel: String)

    /// What went wrong, in one line, with what to do where there is something to do.
    public var description: String {
        switch self {
        case .noDisplay: "GTK cannot open a display (run under xvfb-run -a)"
        case .engineStartedFirst:
            "a JavaScriptEngine started before the first web view, and WebKit cannot start on another main thread: "
                + "call GTKMainLoop.start() before making any JavaScriptEngine, HostedPage or PagePool (docs/webview.md)"
        case .pageGone(let page, let reason): "web view \(page) is gone (\(reason))"
        case .loadFailed(let page, let uri, let message): "web view \(page) failed to load \(uri): \(message)"
        case .scriptFailed(let page, let message): "a script in web view \(page) failed: \(message)"
        case .resultNotJSON(let page, let message): "a script in web view \(page) returned no JSON: \(message)"
        case .channelRefused(let page, let channel): "web view \(page) could not register message handler \(channel)"
        }
    }
}
