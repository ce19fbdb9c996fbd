#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// The C API's own cost of a call, measured in the engine's context: the floor `statehub bench
/// engine` shows the engine's API against, in the same run (docs/benchmarks.md).
///
/// `package`, not public: the benchmark in the CLI needs it, and the CLI must not import the C
/// module (imports point one way). Each loop does, with the C API alone, what the API call it is
/// the floor of does for the same arguments, and nothing more.
extension JavaScriptEngine {
    /// Native→JS calls per second through `JSObjectCallAsFunction` directly: per call, `message`
    /// made a JavaScript string, the call (`this` undefined), and the number it returns read back,
    /// as `call(function, [.string(message)])` does for a function returning a number.
    package func rawNativeToJSCallsPerSecond(_ function: JSFunction, message: String, calls: Int) throws -> Double {
        guard function.link === context.link else { throw EngineError.invalidName("\(function.name) belongs to another engine") }
        let raw = try context.live()
        let object = function.object
        var total = 0.0
        let start = ContinuousClock.now
        for _ in 0..<calls {
            let text = message.withCString { JSStringCreateWithUTF8CString($0) }
            var argument = JSValueMakeString(raw, text)
            JSStringRelease(text)
            var exception: JSValueRef?
            let result = JSObjectCallAsFunction(raw, object, nil, 1, &argument, &exception)
            if let exception { throw context.error(fromException: exception) }
            total += JSValueToNumber(raw, result, nil)
        }
        let elapsed = ContinuousClock.now - start
        guard total.isFinite else { throw EngineError.conversion(.unsupportedType("the floor's function returned no number")) }
        return Double(calls) / elapsed.floorSeconds
    }

    /// JS→native calls per second into a bare C callback (`JSObjectMakeFunctionWithCallback`)
    /// bound as the global `name`: per call, the string argument copied out as UTF-8 into native
    /// memory (what a native receiver needs at least), `null` returned. Timed inside JavaScript by
    /// `loop`, a script whose completion value is the elapsed milliseconds for `calls` calls.
    package func rawJSToNativeCallsPerSecond(boundAs name: String, loop: String, calls: Int) throws -> Double {
        let raw = try context.live()
        guard let global = JSContextGetGlobalObject(raw), let key = name.jsStringRetained() else { throw EngineError.invalidName(name) }
        defer { JSStringRelease(key) }
        let callback: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
            guard count > 0, let arguments, let text = JSValueToStringCopy(context, arguments[0], exception) else { return JSValueMakeNull(context) }
            defer { JSStringRelease(text) }
            let capacity = JSStringGetMaximumUTF8CStringSize(text)
            let written = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
                JSStringGetUTF8CString(text, buffer.baseAddress, capacity)
            }
            return written == 0 ? JSValueMakeUndefined(context) : JSValueMakeNull(context)
        }
        let function = JSObjectMakeFunctionWithCallback(raw, key, callback)
        var exception: JSValueRef?
        JSObjectSetProperty(raw, global, key, function, JSPropertyAttributes(kJSPropertyAttributeNone), &exception)
        if let exception { throw context.error(fromException: exception) }
        let milliseconds = try context.json(from: context.evaluateRaw(loop, sourceURL: "statehub:bench-floor")).numberValue ?? .infinity
        return Double(calls) / (milliseconds / 1000)
    }
}

extension Duration {
    fileprivate var floorSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
