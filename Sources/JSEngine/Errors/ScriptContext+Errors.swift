#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension ScriptContext {
    /// The Swift error for a JavaScript exception value.
    ///
    /// A termination caused by the execution time limit becomes
    /// `EngineError.executionTimeLimitExceeded`; an `Error` object becomes a
    /// `JavaScriptError` with its fields; any other thrown value becomes a
    /// `JavaScriptError` whose message is `String(value)` and whose `thrownValue` is its JSON.
    /// Reading the value runs the page's code (``javaScriptError(from:)``); when the limit stops
    /// that, the stop is the error.
    func error(fromException exception: JSValueRef) -> any Error {
        if let stop = turns.unsettledStop { return refusal(for: stop, kind: turns.isInEntry ? entryKind : .call) }
        do {
            return try insideEntry(keepingAlive: exception) {
                let failure = readJavaScriptError(exception)
                if let stop = turns.unsettledStop { return refusal(for: stop, kind: entryKind) }
                return failure
            }
        } catch {
            return error
        }
    }

    /// The stop the time limit made in this turn and no caller was told of yet, as the error
    /// to tell one (then it is not reported again as the turn ends); nil when there is none.
    ///
    /// - Parameter kind: what was stopped: the entry itself, or a microtask JavaScriptCore
    ///   drained as a call returned.
    func firedStop(kind: ScriptStop.Kind) -> EngineError? {
        guard let limit = turnLimit, turns.takeUnreportedStop() != nil else { return nil }
        let location = turns.stopPlace.location
        // Outside any entry (a plain API call's page code) no turn runs to record it in.
        if turns.isInEntry, turnStop == nil { turnStop = ScriptStop(kind: kind, entry: entryKind, location: location, after: limit) }
        return EngineError.executionTimeLimitExceeded(limit: limit, location: location, kind: kind)
    }

    /// The `JavaScriptError` for a thrown value (or a rejection's reason).
    ///
    /// Reading it runs the page's code: `instanceof Error` (a `Symbol.hasInstance`), getters on
    /// its fields, its `toJSON` and `toString`. So it is read inside an entry, and once the
    /// limit stops one of them, nothing more of it is read: the stop is left to the turn, which
    /// reports it (``error(fromException:)`` tells its caller instead).
    func javaScriptError(from thrown: JSValueRef?) -> JavaScriptError {
        guard let thrown else { return JavaScriptError(message: "undefined") }
        return (try? insideEntry(keepingAlive: thrown) { readJavaScriptError(thrown) }) ?? Self.unreadError
    }

    /// What stands for a thrown value's fields that were not read: the time limit stopped the
    /// page's code reading them ran, or the context closed.
    static let unreadError = JavaScriptError(message: "not read: the page's code that reading it ran was stopped")

    /// ``javaScriptError(from:)``'s reading, inside an entry: every read that can run the page's
    /// code is made only while no stop is unsettled (``TurnStateMachine/hasUnsettledStop``).
    private func readJavaScriptError(_ thrown: JSValueRef) -> JavaScriptError {
        guard let context, !turns.hasUnsettledStop else { return Self.unreadError }
        guard let errorConstructor, JSValueIsObject(context, thrown) else {
            return JavaScriptError(message: describeThrown(thrown), thrownValue: try? json(from: thrown))
        }
        let isError = JSValueIsInstanceOfConstructor(context, thrown, errorConstructor, nil)
        guard !turns.hasUnsettledStop else { return Self.unreadError }
        guard isError, let object = JSValueToObject(context, thrown, nil) else {
            // Not `json(from:)`, which tells its caller of a stop: a stop in the `toJSON` stays
            // the turn's, for the caller of `error(fromException:)` or the turn's report.
            let json = thrownJSON(object: thrown)
            return JavaScriptError(message: describeThrown(thrown), thrownValue: json)
        }
        func text(_ name: String) -> String? {
            guard let value = try? property(name, of: object), !JSValueIsUndefined(context, value), !JSValueIsNull(context, value),
                  !JSValueIsObject(context, value) || !turns.hasUnsettledStop else { return nil }
            return string(from: value)
        }
        func integer(_ name: String) -> Int? {
            guard let value = try? property(name, of: object), JSValueIsNumber(context, value) else { return nil }
            let number = JSValueToNumber(context, value, nil)
            return number.isFinite ? Int(number) : nil
        }
        let stack = text("stack").flatMap { $0.isEmpty ? nil : $0 }
        return mapped(JavaScriptError(
            name: text("name"), message: text("message") ?? "", sourceURL: text("sourceURL"),
            line: integer("line"), column: integer("column"), stack: stack,
            thrownValue: nil))
    }

    /// A thrown object's JSON (`JSON.stringify`, which runs its `toJSON` and getters); nil when
    /// it has none or the conversion threw or was stopped.
    private func thrownJSON(object thrown: JSValueRef) -> JSONValue? {
        guard let context, !turns.hasUnsettledStop else { return nil }
        var exception: JSValueRef?
        guard let text = JSValueCreateJSONString(context, thrown, 0, &exception) else { return nil }
        defer { JSStringRelease(text) }
        return try? JSONValue(parsing: String(jsString: text))
    }

    /// The thrown value as a string; when it cannot be one (a symbol, an object whose
    /// `toString` throws, runs away or is a revoked proxy's), what kind of value it was, so the
    /// message is never empty (never a bare `<script>: uncaught exception:` that says nothing).
    private func describeThrown(_ thrown: JSValueRef) -> String {
        guard let context else { return "" }
        var exception: JSValueRef?
        let text = turns.hasUnsettledStop ? nil : JSValueToStringCopy(context, thrown, &exception)
        defer { if let text { JSStringRelease(text) } }
        if let text, exception == nil { return String(jsString: text) }
        let kind = switch JSValueGetType(context, thrown) {
        case kJSTypeSymbol: "a symbol"
        case kJSTypeObject: "an object"
        default: "a value"
        }
        return "\(kind) that cannot be converted to a string (its conversion threw or was stopped)"
    }

    /// A JavaScript `Error` carrying `message` (and `name`, when given) to throw into a script.
    func makeErrorObject(message: String, name: String? = nil, code: String? = nil) -> JSValueRef? {
        guard let context else { return nil }
        // A local passed by address (on the stack), not a one-element array (on Swift's heap,
        // which the collector does not scan): docs/engine.md, "Values made before a call".
        var messageValue = makeString(message)
        let error = JSObjectMakeError(context, 1, &messageValue, nil)
        guard let error else { return nil }
        if let name, let prototype = nativeErrorPrototypes[name] {
            JSObjectSetPrototype(context, error, prototype)
            label(error, name: nil, code: code)
        } else if name != nil || code != nil {
            label(error, name: name, code: code)
        }
        return error
    }

    /// Sets `name` and `code` on a new error. A setter the page put on `Error.prototype` runs
    /// here, so it runs inside an entry (``insideEntry(keepingAlive:_:)``): outside a call (a
    /// promise rejected from Swift), a stop there is settled before anything else calls into
    /// the context, and reported, since no caller awaits it. A throw or stop in the first
    /// setter leaves the second unrun.
    private func label(_ error: JSObjectRef, name: String?, code: String?) {
        do {
            try insideEntry(keepingAlive: error) {
                if let name { try setProperty("name", of: error, to: makeString(name)) }
                if let code { try setProperty("code", of: error, to: makeString(code)) }
            }
        } catch let failure as EngineError where failure.stop != nil && !turns.isInEntry {
            reportStopNobodyAwaited(failure.stop, what: "a setter on an error's name or code")
        } catch {
            // The page's setter threw: the error keeps the fields it has.
        }
    }
}
