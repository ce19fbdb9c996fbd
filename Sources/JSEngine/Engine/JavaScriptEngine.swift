import Logging
import Synchronization
#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// One JavaScriptCore context — a page — running on a thread of its own.
///
/// ## Threading
/// Each engine owns one dedicated thread. The thread pushes a new GLib main context as its
/// thread-default, creates the context group and global context, and then iterates that
/// main context for the engine's whole life: JavaScriptCore runs its deferred work (idle
/// garbage collection, `FinalizationRegistry` callbacks, freeing destroyed contexts) there.
///
/// The engine is an actor whose serial executor *is* that thread, so every isolated method
/// runs on it and every call from elsewhere hops there and back (`await`). Code already on
/// the thread — inside a bound function, a message handler, a timer callback — takes the
/// synchronous path with `assumeIsolated { engine in … }`. Swift jobs, posted closures and
/// the engine's own timers share one FIFO queue, so work reaches JavaScript in the order
/// it was sent.
///
/// Microtasks (promise reactions, `queueMicrotask`) drain when the outermost call into
/// JavaScript returns, as in a browser task.
///
/// ## Lifetime
/// `close()` releases the JavaScript context at once; later calls throw `EngineError.closed`.
/// Dropping the last reference closes the engine too and ends its thread. Bound closures
/// hold the engine weakly, so binding never keeps an engine alive.
public actor JavaScriptEngine {
    /// How an engine is set up. Every field has a default.
    public struct Configuration: Sendable {
        /// Names the engine in logs, traces and the thread name.
        public var name: String
        /// The clock timers and `performance.now()` follow.
        public var clock: EngineClock
        /// Scripts running longer than this in one turn (an entry into JavaScript and the
        /// microtasks drained before it returns) are stopped with
        /// `EngineError.executionTimeLimitExceeded`, or reported as `UnhandledError` of kind
        /// `.timeLimitExceeded` when a microtask was stopped; `nil` lets them run forever.
        /// Microtasks that never call a native function cannot be stopped (docs/engine.md):
        /// see `onUnresponsive`.
        public var executionTimeLimit: Duration?
        /// Called once per turn, on a dispatch queue (not the engine thread), when one turn
        /// has run longer than `unresponsiveAfter`, in both wall-clock and the engine thread's CPU time: the engine thread is held by JavaScript
        /// it cannot stop, and every `await` on the engine waits. The owner decides: a
        /// command-line tool exits; an app drops the engine and tells the user.
        public var onUnresponsive: (@Sendable (EngineActivity.Snapshot) -> Void)?
        /// When `onUnresponsive` is called (and `PageTransport.onStop` hears of an `.unstoppable` stop);
        /// `nil`: 1.5 × `executionTimeLimit` (10 s without one), so the owner can end such a turn
        /// within twice the limit.
        public var unresponsiveAfter: Duration?
        /// Where `console.*` and engine diagnostics go.
        public var logger: Logger
        /// Called on the engine thread with every `console.*` message.
        public var onConsole: (@Sendable (ConsoleMessage) -> Void)?
        /// Called on the engine thread with every unhandled rejection or uncaught timer exception.
        public var onUnhandledError: (@Sendable (UnhandledError) -> Void)?
        /// How long the engine thread keeps looking for work once it has none, before it sleeps
        /// (docs/engine.md, "Threading"): work arriving meanwhile needs no wake-up of a sleeping
        /// thread (20–40 µs on a VM). Spins that find nothing are switched off for a while, so an
        /// idle engine uses no CPU. `.zero`: sleep at once (saves power where that matters more).
        public var idleSpin: Duration = .microseconds(50)

        public init(
            name: String = "engine",
            clock: EngineClock = .real,
            executionTimeLimit: Duration? = nil,
            logger: Logger = Logger(label: "statehub.js"),
            onConsole: (@Sendable (ConsoleMessage) -> Void)? = nil,
            onUnhandledError: (@Sendable (UnhandledError) -> Void)? = nil,
            onUnresponsive: (@Sendable (EngineActivity.Snapshot) -> Void)? = nil,
            unresponsiveAfter: Duration? = nil
        ) {
            self.onUnresponsive = onUnresponsive
            self.unresponsiveAfter = unresponsiveAfter
            self.name = name
            self.clock = clock
            self.executionTimeLimit = executionTimeLimit
            self.logger = logger
            self.onConsole = onConsole
            self.onUnhandledError = onUnhandledError
        }
    }

    public nonisolated let configuration: Configuration
    nonisolated let thread: EngineThread
    /// Touched only on `thread`: by isolated methods, and by closures posted to the thread.
    nonisolated(unsafe) let context: ScriptContext
    /// Watches turns for `Configuration.onUnresponsive`; `nil` without a handler.
    private let monitor: UnresponsiveMonitor?
    let activityRecord: EngineActivity
    private let closeHandlers = Mutex<[@Sendable () -> Void]>([])
    private let isClosed = Atomic<Bool>(false)

    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Starts the engine's thread and creates its context there, with the web globals installed.
    ///
    /// - Throws: `JavaScriptError` if setting up the globals failed (a bug, not an input).
    public init(configuration: Configuration = Configuration()) throws {
        let (thread, context) = try EngineThread.start(name: EngineThread.threadName(for: configuration.name)) { () throws -> ScriptContext in
            try ScriptContext(configuration: configuration)
        }
        self.configuration = configuration
        self.thread = thread
        self.context = context
        self.activityRecord = context.activity
        // A turn the limit cannot stop is a stop too (`PageTransport.onStop`), then the owner's
        // to end: reported once it has run half the limit longer, in wall-clock and CPU time
        // alike, by when JavaScriptCore would have stopped a turn it can stop.
        let stopHandlers = context.stopHandlers
        let onUnresponsive = configuration.onUnresponsive
        self.monitor = configuration.onUnresponsive != nil || configuration.executionTimeLimit != nil
            ? UnresponsiveMonitor(activity: context.activity,
                                  after: configuration.unresponsiveAfter ?? configuration.executionTimeLimit.map { $0 * 3 / 2 } ?? .seconds(10),
                                  handler: { snapshot in
                                      stopHandlers.notify(ScriptStop(kind: .unstoppable, entry: snapshot.entry == nil ? .call : .script, sourceURL: snapshot.entry,
                                                                     line: nil, after: snapshot.busyFor ?? .zero))
                                      onUnresponsive?(snapshot)
                                  })
            : nil
        nonisolated(unsafe) let unsafeContext = context
        let idleSpin = configuration.idleSpin
        thread.post {
            thread.idleSpin = idleSpin
            thread.nextWakeupDelay = { unsafeContext.hasHandedBack ? 0 : unsafeContext.millisecondsUntilNextTimer() }
            thread.runDueTimers = { unsafeContext.fireDueTimers() }
            thread.runHandedBack = { unsafeContext.runHandedBack() }
        }
    }

    deinit {
        monitor?.cancel()
        nonisolated(unsafe) let context = self.context
        let thread = self.thread
        let handlers = closeHandlers.withLock { (handlers: inout [@Sendable () -> Void]) -> [@Sendable () -> Void] in defer { handlers.removeAll() } ; return handlers }
        thread.post {
            context.close()
            thread.nextWakeupDelay = { nil }
            thread.runDueTimers = {}
            thread.runHandedBack = {}
        }
        thread.stop()
        if !isClosed.exchange(true, ordering: .relaxed) { for handler in handlers { handler() } }
    }

    /// Releases the JavaScript context. Pending timers are dropped; later calls throw
    /// `EngineError.closed`; close handlers run once. Idempotent.
    public func close() {
        monitor?.cancel()
        context.close()
        let handlers = closeHandlers.withLock { (handlers: inout [@Sendable () -> Void]) -> [@Sendable () -> Void] in defer { handlers.removeAll() } ; return handlers }
        if !isClosed.exchange(true, ordering: .relaxed) { for handler in handlers { handler() } }
    }

    /// What the engine is doing now; safe from any thread, also while a turn holds the engine.
    public nonisolated var activity: EngineActivity.Snapshot { activityRecord.snapshot }

    /// Whether `close()` ran.
    public nonisolated var closed: Bool { isClosed.load(ordering: .relaxed) }

    /// Runs `handler` once when the engine closes (explicitly or when released). Runs it
    /// at once when the engine is already closed.
    public nonisolated func onClose(_ handler: @escaping @Sendable () -> Void) {
        let alreadyClosed = closeHandlers.withLock { handlers -> Bool in
            if isClosed.load(ordering: .relaxed) { return true }
            handlers.append(handler)
            return false
        }
        if alreadyClosed { handler() }
    }

    // MARK: Evaluation

    /// Evaluates a classic script (not an ES module) and returns its completion value as JSON.
    ///
    /// - Parameters:
    ///   - sourceURL: names the script in errors and stacks (a file path, typically).
    /// - Returns: the completion value; `undefined` becomes `.null` (see the conversion table
    ///   in the module docs).
    /// - Throws: `JavaScriptError` for an uncaught exception (syntax errors included),
    ///   `EngineError.executionTimeLimitExceeded`, `EngineError.conversion`, `EngineError.closed`.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String? = nil) throws -> JSONValue {
        try context.evaluate(source, sourceURL: sourceURL)
    }

    /// Evaluates `source` as ``evaluate(_:sourceURL:)`` does, with a time limit of its own for
    /// this one turn when it is longer than the configured one: for the owner's own reads (a
    /// test or the CLI reading a large `$state` to compare it with its mirror), which the
    /// page's limit is not meant to cut. The unresponsive watch allows the turn as much more.
    /// Without a configured limit there is none here either.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String? = nil, timeLimit: Duration) throws -> JSONValue {
        context.nextTurnLimit = min(timeLimit, .seconds(31_536_000))   // a year: no overflow in nanoseconds
        defer { context.nextTurnLimit = nil }
        return try context.evaluate(source, sourceURL: sourceURL)
    }

    /// Evaluates a classic script for its effects, ignoring its completion value.
    ///
    /// Use it for files and bundles: a script whose last statement yields a function
    /// (`window.handler = function () {}`) runs fine here, where `evaluate` would throw
    /// `EngineError.conversion` for the value after running it.
    /// - Throws: `JavaScriptError`, `EngineError.executionTimeLimitExceeded`, `EngineError.closed`.
    public func execute(_ source: String, sourceURL: String? = nil) throws {
        _ = try context.evaluateRaw(source, sourceURL: sourceURL)
    }

    /// Evaluates a script for its effects, reporting places in it through `lineMap`: a bundle's
    /// stops, errors and the problems made from them name its original sources (``ScriptLineMap``).
    public func execute(_ source: String, sourceURL: String, lineMap: ScriptLineMap?) throws {
        _ = try context.evaluateRaw(source, sourceURL: sourceURL, lineMap: lineMap)
    }

    /// Evaluates a script and, when its value is a promise, waits for it to settle.
    ///
    /// - Throws: the rejection reason as a `JavaScriptError`, or `EngineError.timeout` when
    ///   the promise has not settled after `timeout` (real time, whatever the engine's clock).
    public func evaluateAndAwait(_ source: String, sourceURL: String? = nil, timeout: Duration = .seconds(30)) async throws -> JSONValue {
        let context = self.context
        return try await awaitSettlement(timeout: timeout) {
            try context.evaluateRaw(source, sourceURL: sourceURL)
        }
    }

    /// Checks a script's syntax without running it.
    public func checkSyntax(_ source: String, sourceURL: String? = nil) throws {
        try context.checkSyntax(source, sourceURL: sourceURL)
    }

    /// The unhandled rejections and uncaught timer exceptions seen so far, oldest first.
    public var unhandledErrors: [UnhandledError] { context.unhandledErrors }

    /// Forgets the recorded unhandled errors.
    public func clearUnhandledErrors() { context.unhandledErrors.removeAll() }

    /// The recorded unhandled errors, forgotten in the same step: reading them and then
    /// clearing them are two hops to the engine's thread, between which a timer's stop can be
    /// recorded and then cleared unread.
    public func takeUnhandledErrors() -> [UnhandledError] {
        defer { context.unhandledErrors.removeAll() }
        return context.unhandledErrors
    }

    /// Number of timers waiting to fire.
    public var pendingTimerCount: Int { context.timers.count }

    // MARK: Clocks

    /// Advances the manual clock, firing due timers in order (due time, then insertion).
    ///
    /// - Throws: `EngineError.wrongClock` under the real clock.
    public func advanceClock(by duration: Duration) throws {
        try context.advanceClock(by: duration)
    }

    /// Fires every timer, jumping the manual clock forward, until none is left.
    ///
    /// - Throws: `EngineError.notIdle` after `limit` firings; `EngineError.wrongClock` under the real clock.
    public func runUntilIdle(limit: Int = 100_000) throws {
        try context.runUntilIdle(limit: limit)
    }

    /// Under the real clock, waits until no timer is pending; the engine keeps running
    /// other work (and firing timers) meanwhile. Under the manual clock it is
    /// `runUntilIdle()`: virtual time jumps to each timer, nothing waits.
    ///
    /// - Throws: `EngineError.timeout` when timers are still pending after `timeout`;
    ///   under the manual clock, what `runUntilIdle()` throws.
    public func waitUntilIdle(timeout: Duration = .seconds(60)) async throws {
        if case .manual = configuration.clock {
            try context.runUntilIdle(limit: 100_000)
            return
        }
        let deadline = ContinuousClock.now + timeout
        while !context.timers.isEmpty || context.hasHandedBack {
            if ContinuousClock.now >= deadline { throw EngineError.timeout(after: timeout) }
            let wait = context.millisecondsUntilNextTimer() ?? 1
            try await Task.sleep(for: .milliseconds(max(1, min(Int(wait), 50))))
        }
    }
}
