#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// The JavaScriptCore functions the engine needs that no public header declares.
///
/// On Linux `libjavascriptcoregtk-4.1` exports them and the CJSCore shim declares them (or looks them up by name).
/// On Apple platforms they are private API (`JSContextRefPrivate.h`), so the Apple build does
/// not call them: `setUnhandledRejectionCallback` and `setExecutionTimeLimit` answer `false`
/// there and the engine goes without, as `docs/engine.md` ("The Linux/Apple seam") describes:
/// no unhandled-rejection reports, and no time limit (the engine logs a warning when one is
/// configured).
enum PrivateJavaScriptCore {
    /// Calls `function(promise, reason)` for every rejection left without a handler at the
    /// end of a microtask checkpoint, including errors thrown inside `.then` callbacks.
    /// Returns whether the platform installed it.
    static func setUnhandledRejectionCallback(_ context: JSGlobalContextRef, _ function: JSObjectRef, exception: inout JSValueRef?) -> Bool {
        #if canImport(CJSCore)
        JSGlobalContextSetUnhandledRejectionCallback(context, function, &exception)
        return true
        #else
        return false
        #endif
    }

    /// Stops scripts of `group` running longer than `seconds` in one entry from the host;
    /// `shouldTerminate` is asked with `info` and answers whether to stop.
    static func setExecutionTimeLimit(
        _ group: JSContextGroupRef, seconds: Double,
        shouldTerminate: @convention(c) (JSContextRef?, UnsafeMutableRawPointer?) -> Bool,
        info: UnsafeMutableRawPointer
    ) -> Bool {
        #if canImport(CJSCore)
        JSContextGroupSetExecutionTimeLimit(group, seconds, shouldTerminate, info)
        return true
        #else
        return false
        #endif
    }

    /// The innermost frames of the running script (`#0 name() at url:line`, a line each),
    /// or `nil` where the platform does not offer it. Safe inside the time-limit callback:
    /// JavaScriptCore calls it at a trap check, with the VM in a consistent state.
    static func backtrace(_ context: JSContextRef, frames: UInt32) -> String? {
        #if canImport(CJSCore)
        guard let text = JSContextCreateBacktrace(context, frames) else { return nil }
        defer { JSStringRelease(text) }
        return String(jsString: text)
        #else
        return nil
        #endif
    }

    /// JavaScriptCore's own termination exception for `group`'s VM: thrown from a native
    /// function, it stops the running turn as the watchdog does (nothing catches it, `finally`
    /// blocks are skipped, the queued microtasks are dropped). `nil` where the platform does
    /// not export it.
    static func terminationException(_ group: JSContextGroupRef) -> JSValueRef? {
        #if canImport(CJSCore)
        return cjs_termination_exception(group)
        #else
        return nil
        #endif
    }

    /// `script`'s text parsed for `group`, read in place rather than copied (``ResidentScript``), or
    /// `nil` where the platform cannot (Apple: private API), for text that is not ASCII, and for
    /// a syntax error (the caller's ordinary evaluation then reports it). Release it with
    /// ``releaseScript(_:)``.
    static func residentScript(_ script: ResidentScript, group: JSContextGroupRef, url: JSStringRef?) -> OpaquePointer? {
        #if canImport(CJSCore)
        guard let bytes = script.bytes else { return nil }
        var message: JSStringRef?
        var line: Int32 = 0
        let parsed = JSScriptCreateReferencingImmortalASCIIText(group, url, 1, bytes, script.count, &message, &line)
        if let message { JSStringRelease(message) }
        return parsed
        #else
        return nil
        #endif
    }

    /// Evaluates a script from ``residentScript(_:group:url:)`` in `context`.
    static func evaluate(_ script: OpaquePointer, in context: JSGlobalContextRef, exception: inout JSValueRef?) -> JSValueRef? {
        #if canImport(CJSCore)
        return JSScriptEvaluate(context, script, nil, &exception)
        #else
        return nil
        #endif
    }

    static func releaseScript(_ script: OpaquePointer) {
        #if canImport(CJSCore)
        JSScriptRelease(script)
        #endif
    }

    static func clearExecutionTimeLimit(_ group: JSContextGroupRef) {
        #if canImport(CJSCore)
        JSContextGroupClearExecutionTimeLimit(group)
        #endif
    }
}
