#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine: PageTransport {
    public nonisolated var pageID: String { configuration.name }

    public func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) throws {
        try installMessageHandler(named: channel, receiver)
    }

    public nonisolated func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        nonisolated(unsafe) let context = self.context
        let pageID = self.pageID
        thread.post {
            do {
                try context.callFunction(atPath: functionPath, pageID: pageID, withString: message)
            } catch {
                onFailure?(error)
            }
        }
    }
}

extension ScriptContext {
    /// Calls the function at a dotted path with one string argument. Engine thread only.
    func callFunction(atPath path: String, pageID: String, withString message: String) throws {
        guard let raw = context else { throw PageTransportError.closed(pageID: pageID) }
        let (holderPath, name) = path.splitLastComponent()
        guard let holder = try? object(atPath: holderPath, creatingMissing: false),
              let value = try property(name, of: holder), JSValueIsObject(raw, value),
              let function = JSValueToObject(raw, value, nil), JSObjectIsFunction(raw, function)
        else { throw PageTransportError.noFunction(pageID: pageID, path: path) }
        _ = try callRaw(function, this: holder, arguments: [makeString(message)])
    }
}

extension String {
    /// `("a.b", "c")` for `"a.b.c"`; `("", "c")` for `"c"`.
    func splitLastComponent() -> (String, String) {
        guard let dot = lastIndex(of: ".") else { return ("", self) }
        return (String(self[..<dot]), String(self[index(after: dot)...]))
    }
}
