import CWebKitGTK
import Foundation
import Synchronization

/// The one thread of the process that runs GTK and WebKit: `gtk:main`, started once, which
/// initialises GTK and WebKit and then iterates GLib's default main context for the life of
/// the process. Every GTK and WebKit call runs on it (docs/webview.md, "Threads").
///
/// WebKit makes the thread that first creates a web context WTF's main thread. It must be
/// this one, and it must come before any `JavaScriptEngine` in the process (the engine then
/// finds WTF's main thread initialised elsewhere and leaves it alone): ``start()`` is called
/// by every web view's set-up, and a program that also runs engines calls it first.
public final class GTKMainLoop: Sendable {
    /// The thread's name at the OS level (`/proc/self/task/*/comm`).
    public static let threadName = "gtk:main"

    /// Starts `gtk:main` once per process; later calls return the same loop, or the same error.
    ///
    /// - Throws: ``WebViewError/noDisplay`` when GTK cannot open a display (run under
    ///   `xvfb-run -a` on a machine without one); ``WebViewError/engineStartedFirst`` when a
    ///   `JavaScriptEngine` was made before it (call this first).
    @discardableResult
    public static func start() throws(WebViewError) -> GTKMainLoop {
        try shared.get()
    }

    /// Whether the calling thread is `gtk:main`.
    public static var isCurrentThread: Bool { current.withLock { $0 } == pthread_self() }

    private static let current = Mutex<pthread_t?>(nil)
    private static let shared: Result<GTKMainLoop, WebViewError> = launch()

    /// Work posted from any thread, run on `gtk:main` in posting order.
    private let queue = Mutex<(work: [@Sendable () -> Void], scheduled: Bool)>(([], false))

    /// The one `WebKitWebContext` of every web view (a web process per view, no disk).
    /// Touched on `gtk:main` only; never released.
    nonisolated(unsafe) let context: UnsafeMutableRawPointer?

    private init(context: UnsafeMutableRawPointer?) {
        self.context = context
    }

    /// Runs `work` on `gtk:main` after everything posted before it, never from within `post`.
    func post(_ work: @escaping @Sendable () -> Void) {
        let schedule = queue.withLock { queue -> Bool in
            queue.work.append(work)
            defer { queue.scheduled = true }
            return !queue.scheduled
        }
        // One idle source drains the whole queue: GLib wakes the loop when it is attached.
        if schedule {
            g_idle_add_full(G_PRIORITY_DEFAULT, { _ in
                GTKMainLoop.drainShared()
                return gboolean(0)  // G_SOURCE_REMOVE
            }, nil, nil)
        }
    }

    private static func drainShared() {
        guard case .success(let loop) = shared else { return }
        let work = loop.queue.withLock { queue -> [@Sendable () -> Void] in
            defer { queue = ([], false) }
            return queue.work
        }
        for item in work { item() }
    }

    private static func launch() -> Result<GTKMainLoop, WebViewError> {
        let ready = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<GTKMainLoop, WebViewError>>(.failure(.noDisplay))
        let worker = Thread {
            if let file = fopen("/proc/thread-self/comm", "w") {
                fputs(threadName, file)
                fclose(file)
            }
            guard gtk_init_check(nil, nil) != 0 else {
                ready.signal()
                return
            }
            // WebKit makes its web context only on WTF's main thread and aborts the process
            // otherwise: a `JavaScriptEngine` started first has made its `jsc:main` that thread.
            // Claimed here first (what WebKit's start-up would do on this thread) so that the
            // other order is a typed error instead of an abort.
            guard statehub_wtf_claim_main_thread() != STATEHUB_WTF_MAIN_THREAD_TAKEN else {
                outcome.withLock { $0 = .failure(.engineStartedFirst) }
                ready.signal()
                return
            }
            current.withLock { $0 = pthread_self() }
            // WebKit initialises itself (and WTF's main thread) here, on this thread, with a
            // context of our own: WebKit's default context is a C++ static whose destructor
            // runs at exit on whichever thread calls `exit`, and aborts off its main thread.
            // Ours lives as long as the process, so nothing of WebKit's runs at exit.
            // Ephemeral: pages leave nothing on disk (docs/webview.md).
            let context = UnsafeMutableRawPointer(webkit_web_context_new_ephemeral())
            outcome.withLock { $0 = .success(GTKMainLoop(context: context)) }
            ready.signal()
            while true { g_main_context_iteration(nil, 1) }
        }
        worker.name = threadName
        worker.stackSize = 8 << 20
        worker.start()
        ready.wait()
        return outcome.withLock { $0 }
    }
}
