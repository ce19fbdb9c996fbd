#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// A JavaScript function held from Swift: protected from garbage collection while this
/// handle lives, callable any number of times with `JavaScriptEngine.call(_:_:)` without
/// parsing any source.
///
/// Releasing the handle unprotects the function on the engine thread. A handle outliving
/// its engine is harmless: calls throw `EngineError.closed`.
public final class JSFunction: Sendable {
    nonisolated(unsafe) let object: JSObjectRef
    /// The owner's link (`ContextLink`): compared on every call, and how the handle's release
    /// reaches the context. No weak reference: one gives the context a side table, which made
    /// every retain and release of it the slow kind.
    let link: ContextLink
    let thread: EngineThread
    /// The name the function was looked up by, for errors.
    public let name: String

    init(object: JSObjectRef, owner: ScriptContext, thread: EngineThread, name: String) {
        self.object = object
        self.link = owner.link
        self.thread = thread
        self.name = name
    }

    deinit {
        nonisolated(unsafe) let object = self.object
        let link = self.link
        thread.post {
            link.withContext { owner in
                guard let context = owner.context, owner.protectedHandles.remove(object) != nil else { return }
                JSValueUnprotect(context, object)
            }
        }
    }
}

extension JavaScriptEngine {
    /// Evaluates `expression` once and holds the function it yields.
    ///
    /// - Throws: `EngineError.conversion(.unsupportedType)` when the value is not a function.
    public func function(_ expression: String) throws -> JSFunction {
        let value = try context.evaluateRaw("(\(expression))", sourceURL: "statehub:function")
        let raw = try context.live()
        guard let value, JSValueIsObject(raw, value), let object = JSValueToObject(raw, value, nil),
              JSObjectIsFunction(raw, object)
        else {
            throw EngineError.conversion(.unsupportedType("non-function value of \(expression)"))
        }
        JSValueProtect(raw, object)
        context.protectedHandles.insert(object)
        return JSFunction(object: object, owner: context, thread: thread, name: expression)
    }

    /// Calls a held function with JSON arguments (`this` is `undefined`).
    ///
    /// - Throws: `JavaScriptError` when it throws; `EngineError.closed`.
    @discardableResult
    public func call(_ function: JSFunction, _ arguments: [JSONValue] = []) throws -> JSONValue {
        guard function.link === context.link else { throw EngineError.invalidName("\(function.name) belongs to another engine") }
        return try context.call(function.object, arguments: arguments)
    }

    /// Calls a held function and, when it returns a promise, waits for it to settle.
    public func callAndAwait(_ function: JSFunction, _ arguments: [JSONValue] = [], timeout: Duration = .seconds(30)) async throws -> JSONValue {
        guard function.link === context.link else { throw EngineError.invalidName("\(function.name) belongs to another engine") }
        let context = self.context
        return try await awaitSettlement(timeout: timeout) {
            // Converted into a stack buffer, not `arguments.map`: see `callRaw(_:this:converting:)`.
            try context.callRaw(function.object, converting: arguments)
        }
    }

    /// Binds a Swift closure as a JavaScript function: `path.name`, or a global when `path`
    /// is empty (`bind("add", on: "math")` makes `math.add`). Missing objects on the path are
    /// created.
    ///
    /// The closure runs on the engine thread, synchronously, with the arguments as JSON
    /// (`undefined` → `.null`; see the conversion table). Its result becomes the call's
    /// value; an error it throws becomes a JavaScript exception the script can catch
    /// (`message` from the error's description, or from `NativeErrorConvertible`).
    ///
    /// The closure must not capture the engine strongly, or engine and closure keep each
    /// other alive; the engine never does so itself.
    public func bind(_ name: String, on path: String = "", _ body: @escaping @Sendable ([JSONValue]) throws -> JSONValue) throws {
        try context.bind(name, on: path) { owner, _, arguments in
            let values = try arguments.map { try owner.json(from: $0) }
            return try owner.jsValue(from: try body(values))
        }
    }

    /// Binds an async Swift closure as a JavaScript function returning a promise.
    ///
    /// The promise settles on the engine thread when the closure finishes: fulfilled with
    /// its result, or rejected with an `Error` carrying the thrown error's message.
    public func bindAsync(_ name: String, on path: String = "", _ body: @escaping @Sendable ([JSONValue]) async throws -> JSONValue) throws {
        let thread = self.thread
        try context.bind(name, on: path) { owner, _, arguments in
            let values = try arguments.map { try owner.json(from: $0) }
            let deferred = try owner.makeDeferredPromise()
            nonisolated(unsafe) let unsafeDeferred = deferred
            Task {
                let result: Result<JSONValue, any Error>
                do { result = .success(try await body(values)) } catch { result = .failure(error) }
                thread.post { unsafeDeferred.settle(result) }
            }
            return deferred.promise
        }
    }
}
