#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// A Swift closure callable from JavaScript, carried as the private data of a JS object.
///
/// The box reaches its script context through the context's `ContextLink`, which holds no
/// reference count: a bound closure never keeps its engine alive (a strong capture would be a
/// cycle through JSC's heap that is never freed). The JS object owns one retain on the box,
/// given back in the class's finalizer.
final class NativeFunction {
    /// Receives the raw arguments and `this`; returns a raw value, or throws to raise a JS exception.
    typealias Body = (_ context: ScriptContext, _ this: JSObjectRef?, _ arguments: UnsafeBufferPointer<JSValueRef?>) throws -> JSValueRef?

    let link: ContextLink
    let body: Body
    /// Whether its time is native work left out of the page's limit (docs/engine.md,
    /// "Native time is not the page's"): false for the task runner, whose body is JavaScript
    /// the page runs (a dispatched action), entered from Swift.
    let timed: Bool

    init(owner: ScriptContext, timed: Bool = true, body: @escaping Body) {
        self.link = owner.link
        self.timed = timed
        self.body = body
    }

    /// The one JSC class every native function object is made from.
    nonisolated(unsafe) static let jsClass: JSClassRef? = {
        var definition = kJSClassDefinitionEmpty
        // A static string: JSClassCreate copies the name, and nothing is left to free.
        let className: StaticString = "NativeFunction"
        definition.className = UnsafeRawPointer(className.utf8Start).assumingMemoryBound(to: CChar.self)
        definition.callAsFunction = { context, function, this, count, arguments, exception in
            guard let function, let data = JSObjectGetPrivate(function) else { return JSValueMakeUndefined(context) }
            // The box and its context are used without a retain each: the JS object holds the box,
            // and the context is open while its link says so (no reference counting per call).
            let result = Unmanaged<NativeFunction>.fromOpaque(data)._withUnsafeGuaranteedRef { box in
                box.link.withContext { owner in NativeFunction.run(box, owner: owner, context: context, this: this, count: count, arguments: arguments, exception: exception) }
            }
            guard let result else {
                exception?.pointee = nil
                return JSValueMakeUndefined(context)
            }
            return result
        }
        definition.finalize = { object in
            guard let object, let data = JSObjectGetPrivate(object) else { return }
            Unmanaged<NativeFunction>.fromOpaque(data).release()
        }
        return JSClassCreate(&definition)
    }()

    /// One call of `box`'s body from JavaScript, with its context open.
    @inline(__always)
    private static func run(_ box: NativeFunction, owner: ScriptContext, context: JSContextRef?, this: JSObjectRef?, count: Int,
                            arguments: UnsafePointer<JSValueRef?>?, exception: UnsafeMutablePointer<JSValueRef?>?) -> JSValueRef? {
        // Past the turn's limit the call does not run: it ends the turn instead.
        if owner.turnIsOverBudget() {
            exception?.pointee = owner.turnTermination()
            return nil
        }
        let timed = box.timed
        let started = timed ? owner.beginNativeCall() : nil
        defer { if timed { owner.endNativeCall(started) } }
        do {
            return try box.body(owner, this, UnsafeBufferPointer(start: arguments, count: count)) ?? JSValueMakeUndefined(context)
        } catch let error as JavaScriptError {
            exception?.pointee = owner.makeErrorObject(message: error.message, name: error.name)
            return nil
        } catch let error as any NativeErrorConvertible {
            exception?.pointee = owner.makeErrorObject(message: error.scriptMessage, name: error.scriptName, code: error.scriptCode)
            return nil
        } catch {
            exception?.pointee = owner.makeErrorObject(message: String(describing: error))
            return nil
        }
    }
}

/// An error that chooses how it appears to JavaScript when thrown from a bound closure.
public protocol NativeErrorConvertible: Error {
    /// The thrown `Error`'s `message`.
    var scriptMessage: String { get }
    /// The thrown `Error`'s `name`; `nil` keeps `"Error"`.
    var scriptName: String? { get }
    /// A `code` property on the thrown `Error`, for scripts that branch on it.
    var scriptCode: String? { get }
}

extension NativeErrorConvertible {
    public var scriptName: String? { nil }
    public var scriptCode: String? { nil }
}

extension ScriptContext {
    /// A JS function object that runs `body`. Its prototype is `Function.prototype`, so
    /// `call`, `apply` and `bind` work on it.
    func makeFunction(named name: String, timed: Bool = true, body: @escaping NativeFunction.Body) throws -> JSObjectRef {
        let context = try live()
        let box = NativeFunction(owner: self, timed: timed, body: body)
        guard let object = JSObjectMake(context, NativeFunction.jsClass, Unmanaged.passRetained(box).toOpaque()) else {
            throw EngineError.invalidName(name)
        }
        if let functionPrototype {
            JSObjectSetPrototype(context, object, functionPrototype)
        }
        return object
    }

    /// Binds `body` as `path.name` (or a global when `path` is empty), creating missing objects.
    ///
    /// In a turn of its own: a getter or setter on the path is the page's code
    /// (``insideEntry(keepingAlive:_:)``).
    func bind(_ name: String, on path: String, body: @escaping NativeFunction.Body) throws {
        guard !name.isEmpty, !name.contains(".") else { throw EngineError.invalidName(name) }
        try insideEntry {
            let holder = try object(atPath: path, creatingMissing: true)
            // A getter on the path whose microtask ran away as the lookup returned: its value
            // was lost, and the function would land on an object the page never sees.
            if let stop = firedStop(kind: .microtask) { throw stop }
            try setProperty(name, of: holder, to: try makeFunction(named: name, body: body))
        }
    }
}
