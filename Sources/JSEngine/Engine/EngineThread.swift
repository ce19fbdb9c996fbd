import Foundation
import Synchronization

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
final class EngineThread: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // Closures posted here run only on the engine thread: the queue just carries them there.
    private enum Work: @unchecked Sendable {
        case job(UnownedJob)
        case closure(() -> Void)
    }

    private struct State {
        var queue: [Work] = []
        var stopping = false
        /// The thread has left its loop: work posted from now on is dropped, never run.
        var exited = false
        /// Who waits for the thread to exit (``waitForExit()``).
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    // Written once on the engine thread before `ready` is signalled, then only read.
    nonisolated(unsafe) private var runLoop: EngineRunLoop?
    nonisolated(unsafe) private var threadID: pthread_t?
    private let finished = DispatchSemaphore(value: 0)

    /// What the loop asks between iterations: the delay until the next real-clock timer, in
    /// milliseconds, or `nil` when none is pending. Set on the engine thread only.
    nonisolated(unsafe) var nextWakeupDelay: () -> UInt32? = { nil }
    /// Runs due real-clock timers. Set on the engine thread only.
    nonisolated(unsafe) var runDueTimers: () -> Void = {}
    /// Runs the page functions JavaScriptCore handed back from its run loop (cleanups; each
    /// pass, as timers; the wake-up delay is 0 while some wait). Set on the engine thread only.
    nonisolated(unsafe) var runHandedBack: () -> Void = {}
    /// How long the loop looks for work before it sleeps (`Configuration.idleSpin`). Set on
    /// the engine thread only.
    nonisolated(unsafe) var idleSpin: Duration = .zero

    /// Work pushed so far: what the loop polls while it spins, without the lock.
    private let pushes = Atomic<UInt64>(0)
    /// True while the loop spins: a push then needs no wake-up.
    private let spinning = Atomic<Bool>(false)
    /// Idle spins still to skip, and spins in a row that found nothing. Engine thread only.
    nonisolated(unsafe) private var spinSkips = 0
    nonisolated(unsafe) private var spinMisses = 0

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
            #if os(Linux)
            // Foundation keeps `Thread.name` to itself on Linux: name the OS thread too, so
            // tools (and the leak check) see it in /proc/self/task/*/comm.
            // (`pthread_setname_np` is hidden from Swift's Glibc module; this is what it does.)
            if let file = fopen("/proc/thread-self/comm", "w") {
                fputs(name, file)
                fclose(file)
            }
            #endif
            // Before JSC creates anything: its deferred work goes to the current run loop.
            // The thread object keeps the run loop, so a wake-up sent after the thread has
            // ended (a `JSFunction` released late, say) never touches freed memory.
            let runLoop = EngineRunLoop()
            thread.runLoop = runLoop
            thread.threadID = pthread_self()
            do { outcome = .success(try setUp()) } catch { outcome = .failure(error) }
            let failed: Bool
            if case .failure = outcome { failed = true } else { failed = false }
            ready.signal()
            if !failed { thread.loop(runLoop) }
            // Let JSC free what the released context left for the run loop.
            runLoop.drain()
            // Work that arrives from now on is dropped; what is queued is released here,
            // outside the lock (releasing a closure may post again).
            let (leftover, exitWaiters) = thread.state.withLock { state -> ([Work], [CheckedContinuation<Void, Never>]) in
                state.exited = true
                defer { state.queue.removeAll(); state.exitWaiters.removeAll() }
                return (state.queue, state.exitWaiters)
            }
            withExtendedLifetime(leftover) {}
            runLoop.leaveThread()
            thread.finished.signal()
            for waiter in exitWaiters { waiter.resume() }
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

    /// The thread's name: `js:` and the engine's name, cut to the 15 bytes Linux keeps
    /// (a longer name is refused outright, leaving the process's name on the thread).
    static func threadName(for engineName: String) -> String {
        var name = "js:"
        for character in engineName where character.isASCII && !character.isNewline {
            guard name.utf8.count < 15 else { break }
            name.append(character)
        }
        return name
    }

    // MARK: SerialExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
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

    /// Queues `work` and wakes the loop. The wake-up cannot be lost: `g_main_context_wakeup`
    /// leaves the context's wake-up fd readable until the loop next polls, so a wake-up sent
    /// between the loop's last look at the queue and its blocking poll ends that poll at once.
    /// After the thread has exited, work is dropped (nothing could run it).
    private func push(_ work: Work) {
        let accepted = state.withLock { state -> Bool in
            guard !state.exited else { return false }
            state.queue.append(work)
            return true
        }
        guard accepted else { return }
        // Counted after the append, before `spinning` is read: a spinning loop that stops
        // spinning reads the count after clearing `spinning`, so one of the two sees the
        // other (both sequentially consistent) and the work is never left asleep.
        pushes.add(1, ordering: .sequentiallyConsistent)
        // Work pushed from the engine thread itself is seen before the loop sleeps again, and
        // a spinning loop sees the count: no wake-up (an eventfd write and a poll) is needed.
        if !isCurrent, !spinning.load(ordering: .sequentiallyConsistent) { runLoop?.wake() }
    }

    /// Whether the thread has left its loop and torn down. For tests and diagnostics.
    var hasExited: Bool { state.withLock { $0.exited } }

    /// Returns once the thread has left its loop and torn down (at once if it has): its
    /// context and group are released by then. For tests and diagnostics, which await the
    /// exit instead of polling ``hasExited``.
    func waitForExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let exited = state.withLock { state -> Bool in
                if !state.exited { state.exitWaiters.append(continuation) }
                return state.exited
            }
            if exited { continuation.resume() }
        }
    }

    /// Asks the loop to finish the queue and stop. Does not wait.
    func stop() {
        state.withLock { $0.stopping = true }
        runLoop?.wake()
    }

    /// Stops and waits until the thread has torn down. Must not be called on the thread itself.
    func stopAndWait() {
        stop()
        if !isCurrent { finished.wait() }
    }

    /// When the loop last let GLib dispatch its sources. Engine thread only.
    private var lastGLibIteration = ContinuousClock.now

    /// The loop: run queued work in FIFO batches, fire due timers, let JSC's own run-loop
    /// sources run, and sleep until woken or until the next real-clock timer is due.
    ///
    /// Wake-ups are never lost: `push` appends under the lock and then wakes the run loop,
    /// and the loop only blocks after finding the queue empty under the same lock; a wake-up
    /// sent in between stays pending and ends the blocking iteration at once. Work pushed
    /// from the engine thread itself needs no wake-up: the loop is running, and checks the
    /// queue before it blocks.
    private func loop(_ runLoop: EngineRunLoop) {
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
            runHandedBack()
            // The count of pushes is read under the lock: work pushed after this look at the
            // queue changes it (`push` counts after appending).
            let (pending, seen) = state.withLock { state in
                (!state.queue.isEmpty || state.stopping, pushes.load(ordering: .sequentiallyConsistent))
            }
            if pending {
                // Let GLib dispatch what is ready (JSC's own sources: GC timers, nothing
                // urgent) without blocking — at most once a millisecond while work keeps
                // coming, so a busy conversation does not pay a poll per message.
                let now = ContinuousClock.now
                if now - lastGLibIteration >= .milliseconds(1) {
                    lastGLibIteration = now
                    runLoop.iterate(blocking: false)
                }
                continue
            }
            lastGLibIteration = ContinuousClock.now
            let delay = nextWakeupDelay()
            if delay == 0 { continue }
            if spinForWork(since: seen, timerDelay: delay) { continue }
            runLoop.iterate(blocking: true, timeoutMilliseconds: delay)
        }
    }

    /// Looks for work for at most `idleSpin` (and not past the next timer) before the loop
    /// sleeps: a conversation (a dispatch answered, the next one sent a few microseconds later)
    /// then costs no wake-up of this thread. Each turn yields the core to any other runnable
    /// thread. A spin that finds nothing makes the next 1, 3, 7… (up to 63) idle moments sleep
    /// at once, so a quiet engine does not burn CPU. Returns whether work came.
    private func spinForWork(since seen: UInt64, timerDelay: UInt32?) -> Bool {
        guard idleSpin > .zero else { return false }
        if spinSkips > 0 {
            spinSkips -= 1
            return false
        }
        let budget = timerDelay.map { min(idleSpin, .milliseconds($0)) } ?? idleSpin
        let deadline = ContinuousClock.now + budget
        spinning.store(true, ordering: .sequentiallyConsistent)
        var found = false
        while !found, ContinuousClock.now < deadline {
            sched_yield()
            found = pushes.load(ordering: .sequentiallyConsistent) != seen
        }
        spinning.store(false, ordering: .sequentiallyConsistent)
        if !found { found = pushes.load(ordering: .sequentiallyConsistent) != seen }
        if found {
            spinMisses = 0
        } else {
            spinMisses = min(spinMisses + 1, 6)
            spinSkips = (1 << spinMisses) - 1
        }
        return found
    }
}
