#if canImport(CJSCore)
import CJSCore
#else
import CoreFoundation
#endif

/// The run loop of an engine thread: the one platform-specific piece of the threading model.
///
/// JavaScriptCore schedules its deferred work (idle garbage collection, `FinalizationRegistry`
/// callbacks, freeing destroyed contexts, async WebAssembly) on the run loop that was current
/// on the thread that created the context group. On Linux that is the thread-default GLib
/// main context; on Apple platforms it is the thread's `CFRunLoop`. `EngineThread` makes one
/// current before JSC creates anything, then iterates it.
///
/// Engine-thread only, except `wake()`, which any thread may call: a wake-up is never lost
/// (GLib's wake-up fd, or a signalled `CFRunLoopSource`, stays pending until the loop runs).
final class EngineRunLoop: @unchecked Sendable {
    #if canImport(CJSCore)
    private let mainContext: OpaquePointer

    /// Creates a GLib main context and pushes it as the calling thread's default. The first
    /// one in the process also starts WTF's main thread (`JSCMainThread`), before JSC creates
    /// anything.
    init() {
        JSCMainThread.ensureStarted()
        mainContext = g_main_context_new()
        g_main_context_push_thread_default(mainContext)
    }

    deinit { g_main_context_unref(mainContext) }

    /// Ends the current or next `iterate(blocking: true, …)` at once. Any thread.
    func wake() { g_main_context_wakeup(mainContext) }

    /// Dispatches what is ready; when `blocking`, first waits for a source, a wake-up, or
    /// `timeoutMilliseconds` (forever when `nil`).
    func iterate(blocking: Bool, timeoutMilliseconds: UInt32? = nil) {
        guard blocking else {
            g_main_context_iteration(mainContext, 0)
            return
        }
        let timeout = timeoutMilliseconds.map { cjs_attach_wakeup_timeout(mainContext, $0) }
        g_main_context_iteration(mainContext, 1)
        if let timeout { cjs_source_destroy(timeout) }
    }

    /// Dispatches everything ready without blocking, until nothing is.
    func drain() {
        while g_main_context_iteration(mainContext, 0) != 0 {}
    }

    /// Pops the main context off the thread. Call once, last, on the engine thread.
    func leaveThread() { g_main_context_pop_thread_default(mainContext) }
    #else
    // Apple platforms: JavaScriptCore.framework uses the thread's CFRunLoop. A version-0
    // source that is signalled before each wake-up makes wake-ups sticky, as GLib's are.
    private let runLoop: CFRunLoop
    private let source: CFRunLoopSource

    init() {
        runLoop = CFRunLoopGetCurrent()
        var sourceContext = CFRunLoopSourceContext()
        sourceContext.perform = { _ in }
        source = CFRunLoopSourceCreate(nil, 0, &sourceContext)
        CFRunLoopAddSource(runLoop, source, CFRunLoopMode.defaultMode)
    }

    func wake() {
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(runLoop)
    }

    func iterate(blocking: Bool, timeoutMilliseconds: UInt32? = nil) {
        let seconds = blocking ? timeoutMilliseconds.map { Double($0) / 1000 } ?? 1e9 : 0
        _ = CFRunLoopRunInMode(CFRunLoopMode.defaultMode, seconds, true)
    }

    func drain() {
        while CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0, true) == .handledSource {}
    }

    func leaveThread() { CFRunLoopSourceInvalidate(source) }
    #endif
}
