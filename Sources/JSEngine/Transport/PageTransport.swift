/// How native code reaches a page: the seam between StateHub's hub and bridge and whatever
/// hosts the JavaScript.
///
/// `JavaScriptEngine` is one implementation; a `WKWebView` adapter on Apple platforms is
/// another (`WKScriptMessageHandler` for `receiveMessages`, `callAsyncJavaScript` with the
/// message as an argument for `send`). Nothing above this protocol may assume the engine.
public protocol PageTransport: AnyObject, Sendable {
    /// Names the page in traces and errors. Stable for the page's life.
    var pageID: String { get }

    /// Delivers every string the page posts to `window.webkit.messageHandlers.<channel>`
    /// to `receiver`, in posting order, on the page's thread. Non-string bodies arrive as
    /// their JSON text. Calling it again for a channel replaces the receiver.
    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws

    /// ``receiveMessages(on:_:)`` for a receiver that reads UTF-8: each message's bytes,
    /// borrowed for the call (the receiver must not keep the pointer). A transport that holds
    /// the text as bytes anyway (the engine copies it out of JavaScriptCore) hands them over
    /// without making a `String`; the default makes the `String` and lends its bytes.
    func receiveMessageBytes(on channel: String, _ receiver: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) async throws

    /// Calls the page function at the dotted `functionPath` (`"nativeBridge.dispatch"`) with
    /// `message` as its only argument — never by building source text, so nothing needs
    /// escaping. Returns at once; messages are delivered in the order sent, after whatever
    /// the page is running now. Failures (the page is gone, the function is missing or
    /// throws) go to `onFailure`, later and never from within `send` itself: callers may
    /// hold a lock while they send, to keep the order of messages decided under it.
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?)

    /// Runs `handler` once when the page goes away; at once if it is already gone.
    func onClose(_ handler: @escaping @Sendable () -> Void)

    /// Runs `handler` for every script of the page stopped at its time limit (or reported as
    /// one the limit cannot stop), once per stop, with where and what it was. A stop of a
    /// call made through ``send(_:toFunction:onFailure:)`` also reaches that call's `onFailure`
    /// (``ScriptStop/entry`` is then `.call`). Transports without a time limit never call it.
    func onStop(_ handler: @escaping @Sendable (ScriptStop) -> Void)

    /// How long the page's thread has been without a script: `.zero` while one runs (a turn
    /// that its host's time limit will end, or report), the time since the last one ended
    /// otherwise; `nil` when the host cannot tell. A caller waiting for the page's answer keeps
    /// waiting while the page works, only slowly (a loaded machine), rather than give up on it.
    /// Readable from any thread.
    var idleFor: Duration? { get }

    /// Whether every script the page runs is sure to end or be reported: its host stops it at
    /// a time limit, or reports through ``onStop(_:)`` (kind `unstoppable`) a turn it cannot
    /// stop. A caller may then wait for a running script without a bound of its own.
    var endsEveryScript: Bool { get }

    /// Whether a caller on the current thread waiting for this page's answer may spin for it a
    /// moment before parking: true when the page answers within microseconds (an engine in this
    /// process) and the current thread is not the page's own (whose spin would hold up the
    /// answer). Read on the caller's thread.
    var callerMaySpin: Bool { get }
}

extension PageTransport {
    /// Through ``receiveMessages(on:_:)``: the `String`'s bytes.
    public func receiveMessageBytes(on channel: String, _ receiver: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) async throws {
        try await receiveMessages(on: channel) { text in
            var text = text
            text.withUTF8(receiver)
        }
    }
    /// A page whose host has no time limit never reports a stop.
    public func onStop(_ handler: @escaping @Sendable (ScriptStop) -> Void) {}
    /// A host that cannot tell: waits end at their deadline.
    public var idleFor: Duration? { nil }
    /// A host that cannot tell: callers keep their own bound.
    public var endsEveryScript: Bool { false }
    /// A page across a process hop (a web view) answers in hundreds of microseconds: park.
    public var callerMaySpin: Bool { false }
}
