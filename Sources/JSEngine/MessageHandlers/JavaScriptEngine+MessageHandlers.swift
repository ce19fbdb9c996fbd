#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine {
    /// Installs `window.webkit.messageHandlers.<name>.postMessage(body)`, as a WKWebView's
    /// `WKScriptMessageHandler` would, so scripts written for a web view run unchanged.
    ///
    /// `handler` runs on the engine thread, synchronously, in posting order. It receives a
    /// string body as it is, and any other body as its JSON text (see the conversion table;
    /// a body with no JSON form makes `postMessage` throw in the script). A lone surrogate in
    /// a string body arrives as its JSON escape (`\ud800`), so a JSON reader sees it.
    /// Installing the same name again replaces the handler.
    public func installMessageHandler(named name: String, _ handler: @escaping @Sendable (String) -> Void) throws {
        guard !name.isEmpty, !name.contains(".") else { throw EngineError.invalidName(name) }
        try context.bind("postMessage", on: "webkit.messageHandlers.\(name)") { owner, _, arguments in
            guard let raw = owner.context else { throw EngineError.closed }
            let body = arguments.first ?? nil
            if let body, JSValueIsString(raw, body) {
                handler(owner.string(from: body, escapingLoneSurrogates: true))
            } else {
                handler(try owner.json(from: body).jsonText())
            }
            return nil
        }
    }

    /// ``installMessageHandler(named:_:)`` for a handler that reads UTF-8: it gets each body's
    /// bytes borrowed for the call (do not keep the pointer), converted by the same rules, and
    /// no `String` is made for them (``bindBytesReceiver(_:on:_:)``).
    public func installBytesMessageHandler(named name: String, _ handler: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) throws {
        guard !name.isEmpty, !name.contains(".") else { throw EngineError.invalidName(name) }
        try context.bind("postMessage", on: "webkit.messageHandlers.\(name)") { owner, _, arguments in
            try owner.receiveArgument(arguments.first ?? nil, escapingLoneSurrogates: true, handler)
            return nil
        }
    }
}
