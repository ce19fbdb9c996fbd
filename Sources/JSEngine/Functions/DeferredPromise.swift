#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// A promise JavaScript holds and Swift settles later (`JSObjectMakeDeferredPromise`).
///
/// Engine-thread only. Its resolve and reject functions stay protected until it settles
/// (or its context closes); settling twice does nothing, as with JavaScript's own.
final class DeferredPromise {
    /// Its context's link (`ContextLink`), not a weak reference (see `JSFunction.link`).
    let link: ContextLink
    let promise: JSObjectRef
    private var resolve: JSObjectRef?
    private var reject: JSObjectRef?

    init(owner: ScriptContext, promise: JSObjectRef, resolve: JSObjectRef, reject: JSObjectRef) {
        self.link = owner.link
        self.promise = promise
        self.resolve = resolve
        self.reject = reject
    }

    func settle(_ result: Result<JSONValue, any Error>) {
        link.withContext { owner in settle(result, in: owner) }
    }

    private func settle(_ result: Result<JSONValue, any Error>, in owner: ScriptContext) {
        guard owner.context != nil, let resolve, let reject else { return }
        defer {
            // Settling runs the page's reactions: a stop in them may close the context.
            owner.unprotectIfLive(resolve)
            owner.unprotectIfLive(reject)
            self.resolve = nil
            self.reject = nil
        }
        switch result {
        case .success(let value):
            do {
                _ = try owner.callRaw(resolve, protecting: try owner.jsValue(from: value))
            } catch {
                _ = try? owner.callRaw(reject, protecting: owner.makeErrorObject(message: String(describing: error)))
            }
        case .failure(let error):
            // Made and protected in one expression (`callRaw(_:this:protecting:kind:)`): the
            // settling entry may first run the stop recovery, which allocates.
            _ = try? owner.callRaw(reject, protecting: Self.errorObject(for: error, in: owner))
        }
    }
}

extension DeferredPromise {
    /// The rejection value for `error`: an `Error` with the message, name and code it chose.
    fileprivate static func errorObject(for error: any Error, in owner: ScriptContext) -> JSValueRef? {
        if let error = error as? JavaScriptError { return owner.makeErrorObject(message: error.message, name: error.name) }
        if let error = error as? any NativeErrorConvertible {
            return owner.makeErrorObject(message: error.scriptMessage, name: error.scriptName, code: error.scriptCode)
        }
        return owner.makeErrorObject(message: String(describing: error))
    }
}

extension ScriptContext {
    func makeDeferredPromise() throws -> DeferredPromise {
        let context = try live()
        var resolve: JSObjectRef?
        var reject: JSObjectRef?
        var exception: JSValueRef?
        let promise = JSObjectMakeDeferredPromise(context, &resolve, &reject, &exception)
        if let exception { throw error(fromException: exception) }
        guard let promise, let resolve, let reject else { throw EngineError.closed }
        JSValueProtect(context, resolve)
        JSValueProtect(context, reject)
        return DeferredPromise(owner: self, promise: promise, resolve: resolve, reject: reject)
    }
}
