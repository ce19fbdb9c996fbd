import Foundation
import Synchronization
#if canImport(CJSCore)
import CJSCore
#endif

/// The one thread an engine's JavaScript runs on, and the serial executor of its actor.
///
/// The thread pushes a new GLib main context as its thread-default *before* JavaScriptCore
/// creates the context group, then iterates that main context: JSC schedules its deferred
/// work (idle garbage collection, `FinalizationRegistry` callbacks, freeing destroyed
/// contexts) on the run loop of the thread that created the group, so without this loop
/// that memory is never returned.
///
/// Work reaches the thread two ways, both FIFO in one queue: Swift jobs of the engine actor
/// (`enqueue`) and plain closures (`post`). Either wakes the GLib loop through
/// `g_main_context_wakeup`, whose eventfd stays readable until the loop polls, so a
/// wake-up sent just before the loop blocks is never lost.
final class EngineThread: SerialExecutor, @unchecked Sendable {
    // Closures posted here run only on the engine thread: the queue just carries them there.
    private enum Work: @unchecked Sendable {
        case job(UnownedJob)
        case closure(() -> Void)
    }

    private struct State {
        var queue: [Work] = []
        var stopping = false
    }

    private let state = Mutex(State())
    // Written once on the engine thread before `ready` is signalled, then only read.
    nonisolated(unsafe) private var mainContext: OpaquePointer?
    nonisolated(unsafe) private var threadID: pthread_t?
    private let finished = DispatchSemaphore(value: 0)

    /// What the loop asks between iterations: the delay until the next real-clock timer, in
    /// milliseconds, or `nil` when none is pending. Set on the engine thread only.
    nonisolated(unsafe) var nextWakeupDelay: () -> UInt32? = { nil }
    /// Runs due real-clock timers. Set on the engine thread only.
    nonisolated(unsafe) var runDueTimers: () -> Void = {}

    private init() {}

    /// Starts a thread, pushes its GLib main context, runs `setUp` there and returns its result.
    ///
    /// At `stop()` the loop drains the queue (release work is posted there), lets GLib run
    /// what JSC left for it, then pops and frees the main context.
    static func start<T>(name: String, setUp: @escaping () throws -> T) throws -> (EngineThread, T) {
        let thread = EngineThread()
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        nonisolated(unsafe) let setUp = setUp
        let worker = Thread {
            let context = g_main_context_new()
            g_main_context_push_thread_default(context)
            thread.mainContext = context
            thread.threadID = pthread_self()
            do { outcome = .success(try setUp()) } catch { outcome = .failure(error) }
            let failed: Bool
            if case .failure = outcome { failed = true } else { failed = false }
            ready.signal()
            if !failed { thread.runLoop() }
            // Let JSC free what the released context left for the run loop.
            while g_main_context_iteration(context, 0) != 0 {}
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
            thread.finished.signal()
        }
        worker.name = name
        worker.stackSize = 8 << 20
        worker.start()
        ready.wait()
        switch outcome {
        case .success(let value): return (thread, value)
        case .failure(let error): thread.finished.wait(); throw error
        case nil: throw EngineError.closed
        }
    }

    // MARK: SerialExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the engine's thread")
    }

    /// Whether the caller runs on this engine's thread.
    var isCurrent: Bool {
        guard let threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    /// Runs `body` on the engine thread, after everything queued before it.
    func post(_ body: @escaping () -> Void) {
        push(.closure(body))
    }

    private func push(_ work: Work) {
        let accepted = state.withLock { state -> Bool in
            state.queue.append(work)
            return true
        }
        if accepted, let mainContext { g_main_context_wakeup(mainContext) }
    }

    /// Asks the loop to finish the queue and stop. Does not wait.
    func stop() {
        state.withLock { $0.stopping = true }
        if let mainContext { g_main_context_wakeup(mainContext) }
    }

    /// Stops and waits until the thread has torn down. Must not be called on the thread itself.
    func stopAndWait() {
        stop()
        if !isCurrent { finished.wait() }
    }

    private func runLoop() {
        while true {
            let (batch, stopping) = state.withLock { state -> ([Work], Bool) in
                let batch = state.queue
                state.queue.removeAll(keepingCapacity: true)
                return (batch, state.stopping)
            }
            for work in batch {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                }
            }
            if batch.isEmpty && stopping { return }
            runDueTimers()
            let pending = state.withLock { !$0.queue.isEmpty || $0.stopping }
            if pending {
                // Let GLib dispatch what is ready (JSC's own sources) without blocking.
                g_main_context_iteration(mainContext, 0)
                continue
            }
            var wakeup: UnsafeMutablePointer<GSource>?
            if let delay = nextWakeupDelay() {
                if delay == 0 { continue }
                wakeup = cjs_attach_wakeup_timeout(mainContext, delay)
            }
            g_main_context_iteration(mainContext, 1)
            if let wakeup { cjs_source_destroy(wakeup) }
        }
    }
}
