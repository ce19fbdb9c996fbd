import JSEngine

/// A WebKitGTK web view as a StateHub page: the hub, the capability bridge and the theme reach
/// it through `PageTransport`, as they reach a `JavaScriptEngine` (docs/webview.md).
///
/// The page runs the same JavaScript as an engine page, injected as user scripts: the
/// Pinia runtime, the sync plugin and chunking, then the bridge's page shim and client at
/// document start; the app's bundles at document end. Messages from the page arrive on
/// `window.webkit.messageHandlers.<channel>`; messages to it are arguments of
/// `webkit_web_view_call_async_javascript_function`, never source text.
///
/// Set it up in the order `HostedPage` uses, then load the document:
///
/// ```swift
/// let page = try await WebViewPage.make(.init(name: "shop", bundles: [.init(path: "cart.js", source: cart)]))
/// try await hub.attach(page)                        // before the stores announce themselves
/// try await bridge.attach(page, app: app, shell: shell)
/// try await page.load()                             // user scripts run; stores are created
/// ```
///
/// A reload (``reload()``) gives the same page a new JavaScript context: every script runs
/// again and the stores announce themselves again. When the web process ends (a crash, a
/// kill, WebKit's memory limit) the page is gone for good: `onClose` handlers run (the hub
/// fails the page's pending dispatches with `StateHubError.engineGone`) and a new page is
/// needed. Web views have no script time limit: `onStop` never fires.
public final class WebViewPage: PageTransport {
    /// The page's id: ``Configuration/name``.
    public let pageID: String
    /// What the page was made with.
    public let configuration: Configuration
    private let lifecycle: PageLifecycle
    let handle: WebViewHandle
    private let loop: GTKMainLoop

    private init(configuration: Configuration, lifecycle: PageLifecycle, handle: WebViewHandle, loop: GTKMainLoop) {
        self.pageID = configuration.name
        self.configuration = configuration
        self.lifecycle = lifecycle
        self.handle = handle
        self.loop = loop
    }

    /// Creates the web view (on `gtk:main`, started if need be) with its user scripts. Nothing
    /// is loaded yet: attach the hub and the bridge, then call ``load()``.
    ///
    /// - Throws: ``WebViewError/noDisplay`` without a display; ``WebViewError/engineStartedFirst``
    ///   when a `JavaScriptEngine` was made before the first web view (call
    ///   ``GTKMainLoop/start()`` first); `BridgeScriptsError` when a script is not embedded in
    ///   this build.
    public static func make(_ configuration: Configuration = Configuration()) async throws -> WebViewPage {
        let loop = try GTKMainLoop.start()
        let lifecycle = PageLifecycle()
        let handle = try await makeHandle(configuration, lifecycle)
        return WebViewPage(configuration: configuration, lifecycle: lifecycle, handle: handle, loop: loop)
    }

    @GTKActor
    private static func makeHandle(_ configuration: Configuration, _ lifecycle: PageLifecycle) throws -> WebViewHandle {
        try WebViewHandle(configuration: configuration, lifecycle: lifecycle)
    }

    deinit {
        let handle = self.handle
        loop.post { GTKActor.assumeIsolated { handle.destroy(.closed) } }
    }

    /// Loads ``Configuration/html`` and returns when the document has finished loading (every
    /// user script has run; what the stores posted may still be on its way to the hub).
    ///
    /// - Throws: ``WebViewError/loadFailed(pageID:uri:message:)``, ``WebViewError/pageGone(pageID:reason:)``.
    public func load() async throws {
        try await handle.load()
    }

    /// Loads ``Configuration/html`` again: a new document and JavaScript context in which every
    /// user script runs again and every store announces itself again (docs/webview.md, "A reload
    /// is not going away"). Style sheets set with ``replaceStyleSheet(id:css:)`` stay; a `<style>`
    /// written into the old document does not.
    ///
    /// The document is loaded from the configuration, not through WebKit's reload, which keeps no
    /// copy of a document given as a string and shows an empty `about:blank` instead.
    ///
    /// - Throws: as ``load()``.
    public func reload() async throws {
        try await handle.reload()
    }

    /// Evaluates `source` as global code in the page and returns its result through JSON made
    /// in the page, so objects keep their key order (`undefined`: `null`).
    ///
    /// - Throws: ``WebViewError/scriptFailed(pageID:message:)`` when it throws,
    ///   ``WebViewError/resultNotJSON(pageID:message:)``, ``WebViewError/pageGone(pageID:reason:)``
    ///   (also when the page goes away during the call); `CancellationError` when the calling task
    ///   is cancelled before the page answers (WebKit has no time limit: a script that never ends
    ///   is given up on this way; the page carries on).
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String = "statehub:evaluate") async throws -> JSONValue {
        try parse(try await handle.callAsyncFunction(WebViewScripts.evaluateBody, arguments: ["source": source], sourceURL: sourceURL))
    }

    /// Runs `body` as the body of an async function whose parameters are the keys of
    /// `arguments` (strings, passed as arguments: never pasted into the source), awaits the
    /// promise it returns and gives the result through JSON — WKWebView's `callAsyncJavaScript`.
    ///
    /// - Throws: as ``evaluate(_:sourceURL:)``; a rejection is ``WebViewError/scriptFailed(pageID:message:)``.
    @discardableResult
    public func callAsyncFunction(_ body: String, arguments: KeyValuePairs<String, String> = [:], sourceURL: String = "statehub:call") async throws -> JSONValue {
        try parse(try await handle.callAsyncFunction(WebViewScripts.callBody(body), arguments: arguments, sourceURL: sourceURL))
    }

    private func parse(_ text: String?) throws -> JSONValue {
        guard let text else { return .null }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw WebViewError.resultNotJSON(pageID: pageID, message: error.description)
        }
    }

    /// Why the page went away; `nil` while it is up.
    public var closeReason: CloseReason? { lifecycle.closeReason }

    /// Destroys the web view; `onClose` handlers run.
    public func close() async {
        await handle.destroy(.closed)
    }

    /// Ends the web process through WebKit (`webkit_web_view_terminate_web_process`); the
    /// page goes away with ``CloseReason/webProcessTerminated``.
    public func terminateWebProcess() async {
        await handle.terminateWebProcess()
    }

    // MARK: PageTransport

    /// Registers `window.webkit.messageHandlers.<channel>` and gives `receiver` every message
    /// the page posts on it, on `gtk:main`, in posting order: strings as they are, any other
    /// body as its JSON text.
    ///
    /// - Throws: ``WebViewError/pageGone(pageID:reason:)``,
    ///   ``WebViewError/channelRefused(pageID:channel:)``.
    public func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {
        try await handle.receive(on: channel, receiver)
    }

    /// Calls the page's function at the dotted `functionPath` with `message` as its only
    /// argument, after every message sent before; returns at once. A failure reaches
    /// `onFailure` later, on `gtk:main`: `PageTransportError.noFunction`,
    /// ``WebViewError/scriptFailed(pageID:message:)`` or `PageTransportError.closed`.
    public func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        let handle = self.handle
        // In order, after whatever gtk:main is doing; never calls back from within `send`.
        loop.post { GTKActor.assumeIsolated { handle.send(message, toFunction: functionPath, onFailure: onFailure) } }
    }

    /// Runs `handler` once when the page goes away (``closeReason`` is then set); at once when
    /// it already has.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        lifecycle.onClose(handler)
    }
}
