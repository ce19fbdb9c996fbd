import CWebKitGTK
import JSEngine
import Logging

private let logger = Logger(label: "statehub.webview")

/// The GTK side of a ``WebViewPage``: the web view, its user content manager, the receivers
/// of its message channels and whoever waits for a load. Lives on `gtk:main` only.
@GTKActor
final class WebViewHandle {
    let pageID: String
    let lifecycle: PageLifecycle
    private let configuration: WebViewPage.Configuration
    private var window: UnsafeMutablePointer<GtkWidget>?
    private var view: UnsafeMutablePointer<WebKitWebView>?
    private let manager: UnsafeMutablePointer<WebKitUserContentManager>
    private var receivers: [String: @Sendable (String) -> Void] = [:]
    private var loadWaiters: [CheckedContinuation<Void, any Error>] = []
    /// The page's style sheets, by id in the order first set: written again into every document the view loads.
    private var styleSheets: [(id: String, css: String)] = []

    init(configuration: WebViewPage.Configuration, lifecycle: PageLifecycle) throws {
        self.pageID = configuration.name
        self.configuration = configuration
        self.lifecycle = lifecycle
        manager = webkit_user_content_manager_new()
        for script in try WebViewScripts.scripts(for: configuration) {
            let userScript = webkit_user_script_new(
                script.source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                script.time == .documentStart ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END,
                nil, nil)
            webkit_user_content_manager_add_script(manager, userScript)
            webkit_user_script_unref(userScript)
        }
        let widget = try Self.makeView(context: GTKMainLoop.start().context, manager: manager)
        let view = UnsafeMutableRawPointer(widget).map { $0.assumingMemoryBound(to: WebKitWebView.self) }
        self.view = view
        // In a mapped (offscreen) window the page counts as visible: WebKit throttles the
        // timers of hidden pages, and the cart's checkout waits on one.
        let window = gtk_offscreen_window_new()
        gtk_container_add(UnsafeMutableRawPointer(window)?.assumingMemoryBound(to: GtkContainer.self), widget)
        gtk_widget_set_size_request(window, 800, 600)
        gtk_widget_show_all(window)
        self.window = window
        let me = Unmanaged.passUnretained(self).toOpaque()
        connect(view, "load-changed", unsafeBitCast(WebViewHandle.loadChanged, to: GCallback.self), me)
        connect(view, "load-failed", unsafeBitCast(WebViewHandle.loadFailed, to: GCallback.self), me)
        connect(view, "web-process-terminated", unsafeBitCast(WebViewHandle.webProcessTerminated, to: GCallback.self), me)
        connect(view, "decide-policy", unsafeBitCast(WebViewHandle.decidePolicy, to: GCallback.self), me)
        if configuration.forwardsConsole {
            try receive(on: WebViewScripts.consoleChannel, Self.consoleReceiver(configuration))
        }
    }

    /// Turns what the console script posts into ``WebViewPage/ConsoleMessage``s for the
    /// configuration's handler and standard output. A body that is not the script's JSON (a
    /// page posting on the channel itself) is shown as it came, at level `log`.
    private static func consoleReceiver(_ configuration: WebViewPage.Configuration) -> @Sendable (String) -> Void {
        let pageID = configuration.name
        let toStandardOutput = configuration.consoleToStandardOutput
        let handler = configuration.onConsole
        return { text in
            let body = try? JSONValue(parsing: text)
            let message: WebViewPage.ConsoleMessage
            if case .string(let level)? = body?["level"], case .string(let line)? = body?["text"] {
                message = WebViewPage.ConsoleMessage(level: level, text: line)
            } else {
                message = WebViewPage.ConsoleMessage(level: "log", text: text)
            }
            if toStandardOutput { print("[\(pageID)] \(message)") }
            handler?(message)
        }
    }

    /// Whether a frame may load `uri` (`NavigationGuard`, or the configuration's own rule).
    private func allowsNavigation(to uri: String) -> Bool {
        if let rule = configuration.allowsNavigation, rule(uri) { return true }
        return NavigationGuard.allows(uri, baseURI: configuration.baseURI)
    }

    // MARK: Channels

    /// Registers `window.webkit.messageHandlers.<channel>` (once) and makes `receiver` its receiver.
    func receive(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) throws(WebViewError) {
        guard view != nil else { throw .pageGone(pageID: pageID, reason: lifecycle.closeReason ?? .closed) }
        if receivers[channel] == nil {
            let box = Unmanaged.passRetained(ChannelBox(handle: self, channel: channel)).toOpaque()
            // Connected before the name is registered, as WebKit advises: no message is missed.
            g_signal_connect_data(manager, "script-message-received::\(channel)",
                                  unsafeBitCast(WebViewHandle.messageReceived, to: GCallback.self), box,
                                  { box, _ in box.map { Unmanaged<ChannelBox>.fromOpaque($0).release() } }, GConnectFlags(rawValue: 0))
            guard webkit_user_content_manager_register_script_message_handler(manager, channel) != 0 else {
                throw .channelRefused(pageID: pageID, channel: channel)
            }
        }
        receivers[channel] = receiver
    }

    /// The function (and its context) that makes a posted string well formed, made once per
    /// context of the UI process that WebKit hands messages in.
    private var wellFormedHelper: (context: UnsafeMutablePointer<JSCContext>, function: UnsafeMutablePointer<JSCValue>)?

    /// A posted string whole: WebKit's C strings end at U+0000 and its strict UTF-8 stops at a
    /// lone surrogate, so the string goes through `WebViewScripts.wellFormedSource` (lone
    /// surrogates become their JSON escape, as `JavaScriptEngine.installMessageHandler` gives
    /// them) and out as counted bytes. `nil`: not a string.
    fileprivate func wellFormed(_ value: UnsafeMutablePointer<JSCValue>?) -> String? {
        guard let value, let context = jsc_value_get_context(value) else { return nil }
        if wellFormedHelper?.context != context {
            guard let function = jsc_context_evaluate(context, WebViewScripts.wellFormedSource, -1) else { return nil }
            if let old = wellFormedHelper { g_object_unref(old.function); g_object_unref(old.context) }
            g_object_ref(context)
            wellFormedHelper = (context, function)
        }
        guard let helper = wellFormedHelper else { return nil }
        var arguments: [UnsafeMutablePointer<JSCValue>?] = [value]
        guard let result = jsc_value_function_callv(helper.function, 1, &arguments) else { return nil }
        defer { g_object_unref(result) }
        guard jsc_value_is_string(result) != 0, let bytes = jsc_value_to_string_as_bytes(result) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    }

    private func deliver(_ text: String, on channel: String) {
        receivers[channel]?(text)
    }

    // MARK: Loading

    /// Loads the configured document and returns when it has finished loading.
    func load() async throws {
        guard let view else { throw WebViewError.pageGone(pageID: pageID, reason: lifecycle.closeReason ?? .closed) }
        try await withCheckedThrowingContinuation { continuation in
            loadWaiters.append(continuation)
            webkit_web_view_load_html(view, configuration.html, configuration.baseURI)
        }
    }

    /// Loads the configured document again (a new JavaScript context: every user script runs
    /// again). Not `webkit_web_view_reload`: WebKit does not keep a document given as a string,
    /// and its reload of one is an empty `about:blank` (the page's elements gone).
    func reload() async throws {
        try await load()
    }

    private func finishLoads(_ error: (any Error)?) {
        let waiters = loadWaiters
        loadWaiters = []
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
    }

    // MARK: Style sheets

    /// Puts `css` into the `<style id=…>` of the current document and keeps it, so that every
    /// document loaded after (a load, a reload, a navigation) gets it too. Returns when the
    /// current document has it.
    func replaceStyleSheet(id: String, css: String) async throws {
        guard view != nil else { throw WebViewError.pageGone(pageID: pageID, reason: lifecycle.closeReason ?? .closed) }
        if let index = styleSheets.firstIndex(where: { $0.id == id }) {
            styleSheets[index].css = css
        } else {
            styleSheets.append((id, css))
        }
        _ = try await callAsyncFunction(WebViewScripts.styleSheetBody, arguments: ["id": id, "css": css], sourceURL: "statehub:style")
    }

    /// Writes every kept style sheet into the document that has just finished loading, before
    /// anyone waiting for the load hears of it: script calls reach the page in order, so the
    /// first call after the load sees the sheets. A failure is the page's doing (a script that
    /// replaced `document.getElementById`, say) and is not reported: the next load writes them again.
    private func writeStyleSheets() {
        guard let view else { return }
        for sheet in styleSheets {
            webkit_web_view_call_async_javascript_function(
                view, WebViewScripts.styleSheetBody, -1, Self.dictionary(["id": sheet.id, "css": sheet.css]), nil, "statehub:style", nil,
                Self.callFinished, Unmanaged.passRetained(ScriptBox { _, _ in }).toOpaque())
        }
    }

    // MARK: Scripts

    /// Calls `sendBody` with `{path, message, encoded}`; failures go to `onFailure` (later, on `gtk:main`).
    func send(_ message: String, toFunction path: String, onFailure: (@Sendable (any Error) -> Void)?) {
        guard let view else {
            onFailure?(PageTransportError.closed(pageID: pageID))
            return
        }
        // A GVariant string ends at U+0000: a message holding one travels as a JSON string literal
        // instead (`encoded`), which the page's body parses back.
        let hasNUL = message.utf8.contains(0)
        let arguments = Self.dictionary([
            "path": path, "message": hasNUL ? "" : message,
            "encoded": hasNUL ? JSONValue.string(message).jsonText() : "",
        ])
        let pageID = self.pageID
        let lifecycle = self.lifecycle
        let box = ScriptBox { value, error in
            guard let onFailure else { return }
            if lifecycle.closeReason != nil {
                onFailure(PageTransportError.closed(pageID: pageID))
            } else if let error {
                onFailure(WebViewError.scriptFailed(pageID: pageID, message: error))
            } else if let value, jsc_value_is_boolean(value) != 0, jsc_value_to_boolean(value) == 0 {
                onFailure(PageTransportError.noFunction(pageID: pageID, path: path))
            }
        }
        webkit_web_view_call_async_javascript_function(
            view, WebViewScripts.sendBody, -1, arguments, nil, "statehub:send", nil,
            Self.callFinished, Unmanaged.passRetained(box).toOpaque())
    }

    /// Runs `body` as the body of an async function whose parameters are `arguments`' keys
    /// (each a string) and returns what it returns (awaited), which must be a string or undefined.
    func callAsyncFunction(_ body: String, arguments: KeyValuePairs<String, String>, sourceURL: String) async throws -> String? {
        guard let view else { throw WebViewError.pageGone(pageID: pageID, reason: lifecycle.closeReason ?? .closed) }
        let pageID = self.pageID
        let variant = Self.dictionary(arguments)
        let call = PendingCall()
        // A page's promise may never settle, and WebKit answers only when it does (or the page
        // goes away): cancelling the task ends the wait at once; a late answer is dropped.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation)
                let box = ScriptBox.resuming(call, pageID: pageID, lifecycle: lifecycle)
                webkit_web_view_call_async_javascript_function(
                    view, body, -1, variant, nil, sourceURL, nil,
                    Self.callFinished, Unmanaged.passRetained(box).toOpaque())
            }
        } onCancel: {
            call.finish(.failure(CancellationError()))
        }
    }

    // MARK: Going away

    /// Destroys the view and marks the page gone (the first reason wins). Loads waiting fail.
    ///
    /// The page is gone at once (nothing more is sent to it); the widget is destroyed on a later
    /// turn of the loop, because this may run inside one of the view's own signals
    /// (`web-process-terminated`), after which WebKit still uses the view.
    func destroy(_ reason: WebViewPage.CloseReason) {
        guard window != nil else { return }
        view = nil
        finishLoads(WebViewError.pageGone(pageID: pageID, reason: reason))
        lifecycle.close(reason)
        guard let loop = try? GTKMainLoop.start() else { return }
        loop.post { GTKActor.assumeIsolated { self.destroyWidget() } }
    }

    private func destroyWidget() {
        guard let window else { return }
        self.window = nil
        gtk_widget_destroy(window)
        // The view held its own reference; ours goes now (and with it the channels' boxes).
        g_object_unref(manager)
    }

    /// Ends the page's web process through WebKit (`webkit_web_view_terminate_web_process`).
    func terminateWebProcess() {
        if let view { webkit_web_view_terminate_web_process(view) }
    }

    // MARK: GLib

    /// A web view in the loop's web context with `manager` (both construct-only properties:
    /// `g_object_new` is variadic, so through `g_object_new_with_properties`).
    private static func makeView(context: UnsafeMutableRawPointer?, manager: UnsafeMutablePointer<WebKitUserContentManager>) -> UnsafeMutablePointer<GtkWidget>? {
        var values = [GValue(), GValue()]
        g_value_init(&values[0], webkit_web_context_get_type())
        g_value_set_object(&values[0], context)
        g_value_init(&values[1], webkit_user_content_manager_get_type())
        g_value_set_object(&values[1], manager)
        defer {
            g_value_unset(&values[0])
            g_value_unset(&values[1])
        }
        let object = "web-context".withCString { contextName in
            "user-content-manager".withCString { managerName in
                var names: [UnsafePointer<CChar>?] = [contextName, managerName]
                return g_object_new_with_properties(webkit_web_view_get_type(), 2, &names, values)
            }
        }
        return UnsafeMutableRawPointer(object)?.assumingMemoryBound(to: GtkWidget.self)
    }

    private func connect(_ instance: UnsafeMutablePointer<WebKitWebView>?, _ signal: String, _ callback: GCallback, _ data: UnsafeMutableRawPointer) {
        g_signal_connect_data(instance, signal, callback, data, nil, GConnectFlags(rawValue: 0))
    }

    /// An `a{sv}` of strings: the argument dictionary of `call_async_javascript_function`.
    private static func dictionary(_ entries: KeyValuePairs<String, String>) -> OpaquePointer? {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        defer { g_variant_builder_unref(builder) }
        for (key, value) in entries {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(g_variant_new_string(value))))
        }
        return g_variant_builder_end(builder)
    }

    /// The end of a `call_async_javascript_function`: its `ScriptBox` (retained for the call)
    /// gets the value or the error.
    private static let callFinished: GAsyncReadyCallback = { object, result, data in
        guard let data else { return }
        let box = Unmanaged<ScriptBox>.fromOpaque(data).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        let value = webkit_web_view_call_async_javascript_function_finish(
            UnsafeMutableRawPointer(object)?.assumingMemoryBound(to: WebKitWebView.self), result, &error)
        box.finish(value, error)
    }

    private static let messageReceived: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, result, data in
        guard let data, let result else { return }
        let box = Unmanaged<ChannelBox>.fromOpaque(data).takeUnretainedValue()
        // Used on this thread only (gtk:main, which the isolation below checks).
        nonisolated(unsafe) let value = webkit_javascript_result_get_js_value(result)
        // Strings arrive as they are (lone surrogates as their JSON escape, as in the engine); any
        // other body as its JSON text (PageTransport's rule).
        let text: String
        if jsc_value_is_string(value) != 0, let whole = GTKActor.assumeIsolated({ box.handle?.wellFormed(value) }) {
            text = whole
        } else if let raw = jsc_value_to_json(value, 0) {
            text = String(cString: raw)
            g_free(raw)
        } else {
            text = "null"
        }
        GTKActor.assumeIsolated { box.handle?.deliver(text, on: box.channel) }
    }

    private static let loadChanged: @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafeMutableRawPointer?) -> Void = { _, event, data in
        guard let data, event == WEBKIT_LOAD_FINISHED else { return }
        let handle = Unmanaged<WebViewHandle>.fromOpaque(data).takeUnretainedValue()
        GTKActor.assumeIsolated {
            handle.writeStyleSheets()
            handle.finishLoads(nil)
        }
    }

    private static let loadFailed: @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafePointer<gchar>?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> gboolean = { _, _, uri, error, data in
        guard let data else { return 0 }
        let handle = Unmanaged<WebViewHandle>.fromOpaque(data).takeUnretainedValue()
        let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        let failedURI = uri.map { String(cString: $0) } ?? ""
        GTKActor.assumeIsolated {
            handle.finishLoads(WebViewError.loadFailed(pageID: handle.pageID, uri: failedURI, message: message))
        }
        return 0  // let WebKit show its error page
    }

    /// Navigations of any frame (top or not) to a document `allowsNavigation` refuses are
    /// ignored, and so is every new window: such a document would get the page's channels.
    private static let decidePolicy: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, WebKitPolicyDecisionType, UnsafeMutableRawPointer?) -> gboolean = { _, decision, type, data in
        guard let data, let decision else { return 0 }
        guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION else { return 0 }
        let handle = Unmanaged<WebViewHandle>.fromOpaque(data).takeUnretainedValue()
        // Both decision types are navigation policy decisions (a GObject subclass of WebKitPolicyDecision).
        let action = webkit_navigation_policy_decision_get_navigation_action(decision.assumingMemoryBound(to: WebKitNavigationPolicyDecision.self))
        let uri = webkit_navigation_action_get_request(action).flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
        let allowed = type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && GTKActor.assumeIsolated { handle.allowsNavigation(to: uri) }
        guard !allowed else { return 0 }
        webkit_policy_decision_ignore(decision.assumingMemoryBound(to: WebKitPolicyDecision.self))
        logger.warning("web view \(handle.pageID): navigation to \(uri.prefix(200)) refused (another origin; docs/webview.md)")
        return 1
    }

    private static let webProcessTerminated: @convention(c) (UnsafeMutableRawPointer?, WebKitWebProcessTerminationReason, UnsafeMutableRawPointer?) -> Void = { _, reason, data in
        guard let data else { return }
        let handle = Unmanaged<WebViewHandle>.fromOpaque(data).takeUnretainedValue()
        let why: WebViewPage.CloseReason = switch reason {
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .webProcessExceededMemoryLimit
        case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .webProcessTerminated
        default: .webProcessCrashed
        }
        GTKActor.assumeIsolated { handle.destroy(why) }
    }
}

/// The channel a `script-message-received::<channel>` connection is for.
@GTKActor
final class ChannelBox {
    weak var handle: WebViewHandle?
    let channel: String

    init(handle: WebViewHandle, channel: String) {
        self.handle = handle
        self.channel = channel
    }
}

/// What to do with the outcome of one script call; carried through WebKit as user data.
final class ScriptBox {
    private let completion: (UnsafeMutablePointer<JSCValue>?, String?) -> Void

    init(_ completion: @escaping (UnsafeMutablePointer<JSCValue>?, String?) -> Void) {
        self.completion = completion
    }

    /// A box that resumes `continuation` with the string the call returned (`nil`: undefined)
    /// or a typed error.
    static func resuming(_ call: PendingCall, pageID: String, lifecycle: PageLifecycle) -> ScriptBox {
        ScriptBox { value, error in
            // A call the page never answered because it went away: what WebKit says then varies
            // ("no longer reachable", "Unsupported result type"); the page being gone is the cause.
            if let reason = lifecycle.closeReason { return call.finish(.failure(WebViewError.pageGone(pageID: pageID, reason: reason))) }
            if let error { return call.finish(.failure(WebViewError.scriptFailed(pageID: pageID, message: error))) }
            guard let value, jsc_value_is_undefined(value) == 0 else { return call.finish(.success(nil)) }
            guard jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) else {
                return call.finish(.failure(WebViewError.resultNotJSON(pageID: pageID, message: "the call returned no JSON text")))
            }
            defer { g_free(text) }
            call.finish(.success(String(cString: text)))
        }
    }

    /// Hands the value (or the error's message) to the completion, then frees both.
    func finish(_ value: UnsafeMutablePointer<JSCValue>?, _ error: UnsafeMutablePointer<GError>?) {
        let message = error.map { String(cString: $0.pointee.message) }
        completion(value, message)
        if let error { g_error_free(error) }
        if let value { g_object_unref(value) }
    }
}
