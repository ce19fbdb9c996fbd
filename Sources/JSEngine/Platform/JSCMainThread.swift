#if canImport(CJSCore)
import CJSCore
import Foundation

/// WTF's main thread for the whole process (Linux only): one thread, named `jsc:main`, that
/// JavaScriptCore's support library treats as the main thread and whose GLib main context is
/// WTF's main run loop.
///
/// The public C API never initialises WTF's main thread (WebKit's process start-up does), so
/// `WTF::RunLoop::main()` stays null. JSC's full-GC activity timer, firing on an engine thread,
/// asks `WTF::MemoryPressureHandler::singleton()` whether memory is under pressure; building
/// that singleton the first time reads `RunLoop::main()` and crashed on the null pointer.
/// `ensureStarted()` runs `WTF::initializeMainThread()` once, before any engine creates its
/// context group, on this dedicated thread: it pushes its own GLib main context first (so
/// WTF's main run loop is that context, not the process default an application may iterate
/// elsewhere) and iterates it for the life of the process, so anything WTF schedules on the
/// main run loop does run. Engine threads stay non-main, as before.
///
/// Apple platforms need none of this: JavaScriptCore.framework initialises itself.
/// See docs/engine.md, "WTF main thread".
enum JSCMainThread {
    /// What `ensureStarted()` found.
    enum State: Sendable, Equatable {
        /// `jsc:main` is WTF's main thread and iterates WTF's main run loop.
        case running
        /// Something else in the process had initialised WTF's main thread first (WebKitGTK,
        /// say): nothing to do, and `jsc:main` ended at once.
        case initializedElsewhere
        /// The library does not export `WTF::initializeMainThread()`: nothing was done.
        case unavailable
    }

    /// Starts `jsc:main` once per process and returns when WTF's main thread is initialised.
    /// Any thread; after the first call it only reads the answer.
    @discardableResult
    static func ensureStarted() -> State { state }

    /// Whether the calling thread is WTF's main thread (`WTF::isMainThread()`): true only on
    /// `jsc:main` once started, never on an engine thread.
    static var isCurrentThreadMain: Bool { cjs_wtf_is_main_thread() }

    /// The thread's name at the OS level (`/proc/self/task/*/comm`).
    static let threadName = "jsc:main"

    // A global `let`: initialised once, atomically, on first use.
    private static let state: State = start()

    private static func start() -> State {
        // Before JavaScriptCore initialises (the first context group comes after this thread).
        cjs_prefer_polling_traps()
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome = State.unavailable
        let worker = Thread {
            // Foundation keeps `Thread.name` to itself on Linux: name the OS thread too (a
            // thread started from an engine thread would otherwise carry that engine's name).
            if let file = fopen("/proc/thread-self/comm", "w") {
                fputs(threadName, file)
                fclose(file)
            }
            // Before WTF looks: its main run loop takes the thread-default main context.
            let context = g_main_context_new()
            g_main_context_push_thread_default(context)
            if !cjs_wtf_initialize_main_thread() {
                outcome = .unavailable
            } else if cjs_wtf_is_main_thread() {
                outcome = .running
            } else {
                outcome = .initializedElsewhere
            }
            let running = outcome == .running
            ready.signal()
            guard running else {
                g_main_context_pop_thread_default(context)
                g_main_context_unref(context)
                return
            }
            // WTF's main run loop, for the life of the process.
            while true { g_main_context_iteration(context, 1) }
        }
        worker.name = threadName
        worker.stackSize = 1 << 20
        worker.start()
        ready.wait()
        return outcome
    }
}
#endif
