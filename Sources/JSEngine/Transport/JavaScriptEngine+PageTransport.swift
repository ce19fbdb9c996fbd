#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine: PageTransport {
    /// `.zero` while the engine thread is inside a turn, the time since its last turn ended
    /// otherwise (`EngineActivity`).
    public nonisolated var idleFor: Duration? { activityRecord.idleFor }

    /// True with a time limit or an unresponsive watch: every turn is stopped, or reported as
    /// an `unstoppable` stop (the monitor runs whenever either is configured).
    public nonisolated var endsEveryScript: Bool { configuration.executionTimeLimit != nil || configuration.onUnresponsive != nil }

    public nonisolated var pageID: String { configuration.name }

    /// True off the engine's thread: the engine answers in microseconds once woken.
    public nonisolated var callerMaySpin: Bool { !thread.isCurrent }

    public func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) throws {
        try installMessageHandler(named: channel, receiver)
    }

    public func receiveMessageBytes(on channel: String, _ receiver: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) throws {
        try installBytesMessageHandler(named: channel, receiver)
    }

    public nonisolated func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        nonisolated(unsafe) let context = self.context
        let pageID = self.pageID
        thread.post {
            // A microtask this call left running (an async action's await loop) and the time
            // limit stopped is this call's failure: its caller is waiting for an answer.
            context.stopsGoToCaller = onFailure != nil
            defer { context.stopsGoToCaller = false }
            do {
                try context.callFunction(atPath: functionPath, pageID: pageID, withString: message)
            } catch {
                onFailure?(error)
                return
            }
            if let stop = context.lastTurnStop, stop.kind == .microtask {
                onFailure?(EngineError.executionTimeLimitExceeded(
                    limit: stop.after, location: stop.sourceURL.map { ScriptLocation(sourceURL: $0, line: stop.line ?? 0, function: stop.function ?? "anonymous") },
                    kind: .microtask))
            }
        }
    }

    public nonisolated func onStop(_ handler: @escaping @Sendable (ScriptStop) -> Void) {
        context.stopHandlers.add(handler)
    }
}

extension ScriptContext {
    /// Calls the function at a dotted path with one string argument. Engine thread only.
    ///
    /// The lookup runs in the call's turn: a getter on the path is the page's code
    /// (``ScriptContext/insideEntry(keepingAlive:_:)``).
    func callFunction(atPath path: String, pageID: String, withString message: String) throws {
        guard let raw = context else { throw PageTransportError.closed(pageID: pageID) }
        try insideEntry {
            let (holderPath, name) = path.splitLastComponent()
            let holder: JSObjectRef
            do {
                holder = try object(atPath: holderPath, creatingMissing: false)
            } catch let error as EngineError where error.stop != nil {
                throw error   // a getter on the path ran away
            } catch {
                throw PageTransportError.noFunction(pageID: pageID, path: path)
            }
            let value = try property(name, of: holder)
            // A getter on the path whose microtask ran away as a lookup returned: the stop
            // took the getter's value, or left its termination pending for the call.
            if let stop = firedStop(kind: .microtask) { throw stop }
            guard let value, JSValueIsObject(raw, value),
                  let function = JSValueToObject(raw, value, nil), JSObjectIsFunction(raw, function)
            else { throw PageTransportError.noFunction(pageID: pageID, path: path) }
            // Protected as it is made: see `callRaw(_:this:protecting:kind:)`.
            _ = try callRaw(function, this: holder, protecting: makeString(message))
        }
    }
}

extension String {
    /// `("a.b", "c")` for `"a.b.c"`; `("", "c")` for `"c"`.
    func splitLastComponent() -> (String, String) {
        guard let dot = lastIndex(of: ".") else { return ("", self) }
        return (String(self[..<dot]), String(self[index(after: dot)...]))
    }
}
