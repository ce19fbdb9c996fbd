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

    static func clearExecutionTimeLimit(_ group: JSContextGroupRef) {
        #if canImport(CJSCore)
        JSContextGroupClearExecutionTimeLimit(group)
        #endif
    }
}
