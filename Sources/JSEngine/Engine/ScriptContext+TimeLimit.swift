import Foundation
#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// Surviving what the execution time limit stops (docs/engine.md, "Execution time limit").
///
/// JavaScriptCore runs promise reactions and other microtasks when the outermost call into
/// it returns, after that call's own result is decided. When the limit stops one of them,
/// the call returns normally and the termination stays *pending* in the VM: the next call
/// into JavaScript receives it instead, and if that call reaches a native function first,
/// JavaScriptCore aborts the process (checked with JSC 2.50.6: a runaway `.then` followed by
/// a timer whose callback calls `console.log`). So after every outermost entry during which
/// the limit fired, the context runs a probe — a script that calls nothing native — until
/// one comes back clean: the probe absorbs the pending termination. A stop the entry did not
/// report itself (one inside a microtask) is reported once, as `UnhandledError` of kind
/// `.timeLimitExceeded`, with the place JavaScriptCore's backtrace named.
///
/// One *turn* is an outermost entry plus the microtasks JavaScriptCore drains before it
/// returns. JavaScriptCore gives each microtask a fresh CPU budget, so a chain of short
/// microtasks (an `await` loop, a promise chain that re-queues itself) would never be
/// stopped. The limit is therefore also measured over the whole turn, in wall-clock time,
/// at every call into a native function (`console`, timers, message handlers, the store
/// plugin's posts, `queueMicrotask`): past the limit, that call throws JavaScriptCore's own
/// termination exception instead of running, which ends the running microtask as the
/// watchdog's stop does and drops the rest of the queue. A chain that calls nothing native cannot be
/// stopped from inside the process; `EngineActivity` and `Configuration.onUnresponsive`
/// tell the owner about it.
extension ScriptContext {
    /// Runs one call into JavaScript; the outermost one settles a stop afterwards.
    ///
    /// What runs first and what follows is the turn lifecycle's (`TurnStateMachine`): a stop
    /// left pending outside any entry is settled first, the page's stop recovery runs as turns
    /// of its own, and a stopped turn is settled as it ends.
    ///
    /// - Parameters:
    ///   - entry: the script's source URL, shown while the turn runs (`EngineActivity`).
    ///   - kind: what the turn is, for its stop (`script`, `call`, `timer`, `recovery`).
    func enter<T>(entry: String? = nil, kind: ScriptStop.Kind, _ body: () throws -> T) throws -> T {
        let outermost = try beginEntry(kind: kind)
        if outermost {
            // An owner's evaluation may take longer than the page's limit, never shorter (the
            // watchdog's timer runs with the configured one).
            let asked = nextTurnLimit.map { $0.nanoseconds }
            nextTurnLimit = nil
            turnLimitNanos = configuredTurnLimitNanos.map { configured in max(configured, asked ?? configured) }
            let limitFactor = configuredTurnLimitNanos.flatMap { configured in
                turnLimitNanos.map { Int(min(($0 &+ configured &- 1) / max(configured, 1), 1_000_000)) }
            } ?? 1
            entryKind = kind
            turnStop = nil
            nativeCPUInTurn = 0
            nativeWallInTurn = 0
            // The thread's CPU clock is a system call (1.5-2.5 µs on this VM, most of an API call's
            // cost, docs/benchmarks.md): read only when a limit or an unresponsive watch uses it.
            turnStartCPU = measuresTurnCPU ? Self.threadCPUTime() : 0
            turnStartWall = EngineActivity.now()
            activity.beginTurn(at: turnStartWall, cpu: turnStartCPU, entry: entry, limitFactor: limitFactor)
        }
        defer { endEntry(outermost: outermost) }
        return try body()
    }

    /// Asks the turn lifecycle to begin an entry, running first what it says must run;
    /// returns whether the entry begins a turn.
    private func beginEntry(kind: ScriptStop.Kind) throws(EngineError) -> Bool {
        // Each step leaves the machine idle in another state; the recovery's attempts and a
        // pending stop's probes end in at most a few rounds.
        while true {
            switch turns.entryBegins(kind == .recovery ? .recovery : .page) {
            case .beginTurn:
                return true
            case .nest:
                return false
            case .settlePendingStopFirst(let stop):
                settle(stop, turnEnded: false)
            case .runRecoveryFirst:
                // The recovery after a stop runs as a turn of its own, before this one: the page
                // can make it run away (a patched array iterator in the runtime's loops), and
                // inside the caller's turn its stop spent that turn's watchdog, so the caller's
                // own loop was never stopped.
                runStopRecoveryTurn()
            case .refuse:
                // A recovery stopped with probes that kept failing closed the context: the
                // caller's body holds the context it had before (`unprotectIfLive(_:)`).
                throw .closed
            case .refuseStopped(let stop):
                throw refusal(for: stop, kind: kind)
            }
        }
    }

    /// Throws the unsettled stop (``TurnStateMachine/unsettledStop``), if there is one: asked
    /// before every plain API call that can run the page's code (a getter, a setter, a `toJSON`,
    /// a `toString`, a `Symbol.hasInstance`), outside an entry or inside one. With the stop's
    /// termination pending, such code would reach a native call, where JavaScriptCore aborts.
    ///
    /// - Parameter kind: the stop's kind if no caller was told of it yet. Every stop of a call
    ///   comes back as that call's exception and is told there, so an untold one found before
    ///   the next call stopped a microtask JavaScriptCore drained as the last call returned.
    @inline(__always)
    func refuseWhileStopped(kind: ScriptStop.Kind = .microtask) throws(EngineError) {
        guard turns.hasUnsettledStop, let stop = turns.unsettledStop else { return }
        throw refusal(for: stop, kind: kind)
    }

    /// The error that refuses page code while `stop` is unsettled: the stop itself, told to
    /// this caller when no one was told of it yet.
    func refusal(for stop: TurnStateMachine.Stop, kind: ScriptStop.Kind) -> EngineError {
        firedStop(kind: kind) ?? .executionTimeLimitExceeded(limit: turnLimit ?? .zero, location: turns.stopPlace.location, kind: kind)
    }

    /// Ends an entry; the outermost one ends the turn and settles its stop.
    private func endEntry(outermost: Bool) {
        switch turns.entryEnds() {
        case .none:
            // A nested entry, or the context was closed inside the turn.
            guard outermost else { return }
        case .endTurn(let restoreWatchdog):
            endTurn(restoreWatchdog: restoreWatchdog)
        case .settle(let stop, let restoreWatchdog):
            endTurn(restoreWatchdog: restoreWatchdog)
            settle(stop, turnEnded: true)
        }
        turnStartWall = 0
        activity.endTurn()
        lastTurnStop = turnStop
        if let turnStop { stopHandlers.notify(turnStop) }
    }

    private func endTurn(restoreWatchdog: Bool) {
        // Out of the VM now, so this starts no timer: the next entry starts one.
        if restoreWatchdog, let limit = configuration.executionTimeLimit { _ = installTimeLimit(seconds: limit.inSeconds) }
    }

    /// Runs `body` — C-API work that can run the page's code: a getter, a `toJSON`, a proxy's
    /// trap, and the microtasks JavaScriptCore drains as the outermost call returns — inside
    /// an entry, as a turn of its own (kind `call`) when none is running.
    ///
    /// Outside any entry, a stop there leaves a termination pending in the VM until the next
    /// entry settles it (`TurnStateMachine`, `stopPending`); a native call reached before that
    /// aborts the process (SIGILL: an evaluation's result whose `toJSON` queued a runaway
    /// microtask, then a function calling `console.log`; `aStopInsideAConversionIsSettled`).
    ///
    /// - Parameter value: a value `body` reads, protected from the collector while the stop
    ///   recovery, which allocates, runs first (docs/engine.md, "Values made before a call").
    @inline(__always)
    func insideEntry<T>(keepingAlive value: JSValueRef? = nil, _ body: () throws -> T) throws -> T {
        if turns.isInEntry { return try body() }
        // The array only when code runs first: `keepingAlive` protects it at once.
        guard turns.nextEntryRunsCodeFirst, let value else { return try enter(kind: .call, body) }
        return try keepingAlive([value]) { try enter(kind: .call, body) }
    }

    /// Called at every native call: whether the turn has run past the limit, so the call must
    /// not run and throws JavaScriptCore's termination instead (``turnTermination``).
    ///
    /// Counted in the engine thread's CPU time, as JavaScriptCore counts its own limit, so a
    /// loaded machine does not stop a turn early; wall-clock time (cheap to read) filters
    /// first, since it is never less than CPU time. Time spent inside native calls (the hub
    /// applying, recording and redacting a message) is not the page's and is left out; the
    /// whole turn, native time included, is still held to ``nativeAllowance`` times the limit,
    /// so a loop of writes that each cost much native work is stopped too. Once the turn is
    /// over, every later outermost native call of the turn is refused the same way.
    ///
    /// No watchdog timer takes part: a stop here is an exception thrown on this thread, not a
    /// trap another thread fires (docs/reliability.md, "JavaScriptCore's abort on its signal
    /// sender thread").
    @inline(__always)
    func turnIsOverBudget() -> Bool {
        guard turns.isInEntry, nativeDepth == 0 else { return false }
        if turns.isForcingStop { return true }
        guard let turnLimitNanos else { return false }
        let started = turnStartWall
        guard started != 0 else { return false }
        let wall = EngineActivity.now() &- started
        guard wall &- nativeWallInTurn > turnLimitNanos || wall > turnLimitNanos &* Self.nativeAllowance else { return false }
        guard pageRanPastLimit(turnLimitNanos) else { return false }
        // Where the page was when its turn ran out: the stop often falls where JavaScriptCore's
        // backtrace holds no page code (between two microtasks, or in StateHub's own scripts),
        // so this names the runaway code then.
        // Its line is the page's call, inside the loop's body: the stop names the loop around it.
        let location = context.flatMap { PrivateJavaScriptCore.backtrace($0, frames: 64) }.flatMap(ScriptLocation.innermost(inBacktrace:))
            .map { mapped($0.atLoop(in: sources[$0.sourceURL], atHead: false)) }
        // No page frame in sight (the plugin's flush between an `await` loop's microtasks): the
        // machine puts the stop off to one of the next native calls that has one (the flush's
        // scheduling, inside the page's write), so the stop names the page's loop. Refused, the
        // stop is reported as the watchdog's are: the entry's own exception when the entry was
        // stopped, otherwise once the turn ends (`settle`).
        guard turns.nativeCallPastLimit(at: location) else { return false }
        activity.markStopRequested()
        return true
    }

    /// What a native call refused by ``turnIsOverBudget()`` throws: JavaScriptCore's own
    /// termination exception, which JavaScriptCore tells from any other value by identity, so
    /// no `catch` or `finally` of the page runs and the microtasks queued after it are dropped,
    /// as after the watchdog's stop (checked with JavaScriptCore 2.50.6). Where the library does
    /// not export it, an ordinary `TimeLimitExceeded` error the page could catch.
    func turnTermination() -> JSValueRef? {
        if let group, let termination = PrivateJavaScriptCore.terminationException(group) { return termination }
        return makeErrorObject(message: "the turn ran past the execution time limit", name: "TimeLimitExceeded")
    }

    /// The running turn's limit (the configured one but for an owner's evaluation given its own).
    var turnLimit: Duration? { turnLimitNanos.map { .nanoseconds(Int64(min($0, UInt64(Int64.max)))) } }

    /// Whether the running turn has used up its budget (``turnBudgetLeft(_:)`` is 0).
    func pageRanPastLimit(_ limit: UInt64) -> Bool { turnBudgetLeft(limit) == 0 }

    /// CPU time the running turn may still use: the limit of the page's own CPU time (the
    /// turn's without its native calls, the one under way included), and ``nativeAllowance``
    /// limits with native time counted, whichever runs out first.
    func turnBudgetLeft(_ limit: UInt64) -> UInt64 {
        let now = Self.threadCPUTime()
        let turn = now &- turnStartCPU
        let native = min(turn, nativeCPUInTurn &+ (nativeCallStartCPU.map { now &- $0 } ?? 0))
        let page = turn - native
        let whole = limit &* Self.nativeAllowance
        guard page < limit, turn < whole else { return 0 }
        return min(limit - page, whole - turn)
    }

    /// CPU time of the calling thread, in nanoseconds.
    static func threadCPUTime() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sets JavaScriptCore's limit for the group, with the callback that decides each stop.
    ///
    /// JavaScriptCore's watchdog fires when a stretch of JavaScript has run past its limit in
    /// the thread's CPU time, native calls included. The callback stops the turn when the page
    /// itself ran past its budget (or the turn check already found it over); when the
    /// clock ran on native work (the hub applying a large write) it lets the page go on.
    ///
    /// Only this callback changes the limit while a turn runs, and never to a timer that fires
    /// at once from inside the trap handler: JavaScriptCore 2.50 aborts the
    /// process when its timer thread fires a trap the engine thread takes before the timer
    /// thread asks for the stop (`RELEASE_ASSERT(!m_threadStopRequested)` in
    /// `VMTraps::requestThreadStopIfNeeded`, read from a core dump; docs/reliability.md). Every
    /// timer started mid-turn, and every trap it fires, is a chance for that race.
    func installTimeLimit(seconds: Double) -> Bool {
        guard let group else { return false }
        return PrivateJavaScriptCore.setExecutionTimeLimit(group, seconds: seconds, shouldTerminate: { context, info in
            guard let info else { return true }
            let owner = Unmanaged<ScriptContext>.fromOpaque(info).takeUnretainedValue()
            let action = owner.turns.watchdogFires(pageBudgetLeft: { owner.turnLimitNanos.map(owner.turnBudgetLeft) ?? 0 },
                                                   shortestRestart: ScriptContext.shortestRestart)
            switch action {
            case .restart(let nanoseconds):
                // Native work ran the clock. Declined, JavaScriptCore does not start its timer
                // again by itself (it takes the spent deadline for one the callback started),
                // so the watchdog is started here with what the page has left, at least 1 ms:
                // never a timer that fires while this thread is still inside the trap handler.
                // The configured limit comes back when the turn ends.
                _ = owner.installTimeLimit(seconds: Double(nanoseconds) / 1e9)
                return false
            case .terminate(let locate):
                guard locate else { return true }
                // Every stop names the loop's own line (docs/engine.md, "Which line a stop
                // names"): stopped at the loop's head, JavaScriptCore names the last expression
                // before it (ScriptLocation.loopLine reads forward); stopped inside something the
                // body called, the page's frame has the call's line (the loop around it).
                let frame = context.flatMap { PrivateJavaScriptCore.backtrace($0, frames: 64) }.flatMap(ScriptLocation.innermostFrame(inBacktrace:))
                owner.turns.stopLocated(at: frame.map { owner.mapped($0.location.atLoop(in: owner.sources[$0.location.sourceURL], atHead: $0.atTop)) })
                return true
            }
        }, info: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Absorbs a pending termination and reports a stop no caller saw. Gives the context up
    /// (`close()`, so later calls throw `EngineError.closed`) if probes keep failing.
    ///
    /// - Parameter turnEnded: the stop ended a turn (not: it was made outside any entry, by
    ///   page code a plain API call ran, and is settled as the next entry begins).
    private func settle(_ stop: TurnStateMachine.Stop, turnEnded: Bool) {
        var clean = false
        if let context, let probe = Self.probeScript.jsStringRetained() {
            defer { JSStringRelease(probe) }
            for _ in 0..<Self.probeAttempts {
                var exception: JSValueRef?
                JSEvaluateScript(context, probe, nil, nil, 1, &exception)
                if exception == nil, !stopProbesFailForTesting { clean = true; break }
            }
        }
        let settled = turns.stopSettled(clean: clean)
        // Reported once: a stop the entry already reported (its own exception) is not
        // reported again for the microtasks stopped after it (the plugin's flush).
        if case .settled(unreported: true) = settled, let limit = turnLimit {
            if !turnEnded {
                reportStopNobodyAwaited(ScriptStop(kind: .call, entry: .call, location: turns.stopPlace.location, after: limit), what: "page code run outside a call")
            } else if turnStop == nil {
                let location = turns.stopPlace.location
                let stop = ScriptStop(kind: .microtask, entry: entryKind, location: location, after: limit)
                turnStop = stop
                if !stopsGoToCaller {
                    reportUnhandled(UnhandledError(kind: .timeLimitExceeded, error: JavaScriptError(
                        name: "TimeLimitExceeded", message: "stopped after \(stop.seconds) s: \(stop.what) ran past the execution time limit; the microtasks queued after it were dropped",
                        sourceURL: location?.sourceURL, line: location?.line,
                        stack: location.map { "\($0.function)@\($0.sourceURL):\($0.line)" }), stop: stop))
                }
            }
        }
        if case .close = settled {
            logger.error("the context stayed terminated after \(Self.probeAttempts) probes; it is closed")
            close()
        }
    }

    static let probeAttempts = 4
    /// The probe: it calls nothing native, and its loop head is a trap check in the
    /// interpreter, so it also takes a watchdog trap left pending by a turn that a native
    /// call's termination ended first. Left pending, that trap's stop request stayed standing
    /// and JavaScriptCore sent no signal for the next timer, so a compiled `for (;;) {}` in a
    /// later turn was never stopped.
    static let probeScript = "do {} while (false)"
    /// The shortest limit the watchdog's callback starts JavaScriptCore's timer with.
    static let shortestRestart: UInt64 = 1_000_000

    /// JavaScriptCore's termination skips `finally` blocks and drops queued microtasks, so a
    /// stop leaves the store runtime's and the plugin's counters where it landed (a write's
    /// depth stuck above 0 holds every later delivery). Before the page runs anything else,
    /// in the next turn (with its own budget, so a native call in it is not stopped for the
    /// old one), every `reset` the page's scripts registered in
    /// `globalThis.__statehubStopRecovery` runs, then every `release` in reverse order
    /// (docs/engine.md, "Recovery after a stop"). A throw in one is logged, never the caller's.
    /// Runs ``recoverAfterStop(resetOnly:)`` as its own turn (`statehub:stop-recovery`): stopped,
    /// it is reported as any turn's stop and not run again for its own stop.
    ///
    /// A recovery the limit stops (a held write reaching a runaway sync subscriber again) leaves
    /// the page's counters where that stop landed, and every later write would be held for good;
    /// so it runs again at once, in a turn of its own, and each run takes up past the subscriber
    /// the last one was stopped in. After ``recoveryAttempts`` - 1 stops in a row, the last
    /// attempt only resets: what is still held is dropped, never delivered (docs/engine.md,
    /// "Recovery after a stop").
    private func runStopRecoveryTurn() {
        turns.recoveryBegins()
        // The limit an owner asked for belongs to the turn after this one.
        let asked = nextTurnLimit
        nextTurnLimit = nil
        defer { turns.recoveryEnds(); nextTurnLimit = asked }
        for attempt in 1...Self.recoveryAttempts {
            let resetOnly = attempt == Self.recoveryAttempts
            if resetOnly {
                logger.error("the recovery after a stop was stopped \(attempt - 1) times in a row: it only resets, and the deliveries still held for sync subscribers are dropped")
            }
            guard runStopRecoveryAttempt(resetOnly: resetOnly), context != nil else { break }
        }
    }

    /// One recovery turn; returns whether the limit stopped it.
    private func runStopRecoveryAttempt(resetOnly: Bool) -> Bool {
        do {
            try enter(entry: Self.stopRecoveryEntry, kind: .recovery) {
                if let exception = recoverAfterStop(resetOnly: resetOnly) { throw error(fromException: exception) }
            }
        } catch let error as EngineError where error.stop != nil {
            // Only a page's own step can run away here (ours are short): said as any stop is,
            // naming the recovery, so the next call's stop is not blamed for it.
            reportStopNobodyAwaited(error.stop, what: "the recovery after a stop")
            return true
        } catch let error as JavaScriptError {
            reportUnhandled(UnhandledError(kind: .uncaughtException, error: error))
        } catch {
            logger.error("the page's stop recovery failed: \(error)")
        }
        return false
    }

    /// How many times the recovery runs at one entry when the limit keeps stopping it; the last
    /// time only resets.
    static let recoveryAttempts = 4

    /// The entry name of the stop recovery's turn (`EngineActivity`, stops).
    static let stopRecoveryEntry = "statehub:stop-recovery"

    /// Returns what the recovery threw (a step's throw, or the time limit's termination).
    ///
    /// - Parameter resetOnly: run every step's `reset(true)` and no `release`: the steps drop
    ///   what they hold instead of delivering it.
    func recoverAfterStop(resetOnly: Bool = false) -> JSValueRef? {
        let text = resetOnly ? Self.stopResetOnlyScript : Self.stopRecoveryScript
        guard let context, let script = text.jsStringRetained() else { return nil }
        defer { JSStringRelease(script) }
        var exception: JSValueRef?
        JSEvaluateScript(context, script, nil, nil, 1, &exception)
        return exception
    }

    /// Every step's `reset(dropHeld)`, then, unless `dropHeld`, every `release` in reverse order.
    private static let stopRecoveryFunction = """
    (function (steps, dropHeld) {
      if (!Array.isArray(steps)) return;
      var failed = null, i;
      for (i = 0; i < steps.length; i++) { try { if (typeof steps[i].reset === 'function') steps[i].reset(dropHeld); } catch (e) { failed = e; } }
      if (!dropHeld) {
        for (i = steps.length - 1; i >= 0; i--) { try { if (typeof steps[i].release === 'function') steps[i].release(); } catch (e) { failed = e; } }
      }
      if (failed !== null) throw failed;
    })
    """

    static let stopRecoveryScript = stopRecoveryFunction + "(globalThis.__statehubStopRecovery, false)"

    /// The last attempt: every `reset(true)`, no `release`.
    static let stopResetOnlyScript = stopRecoveryFunction + "(globalThis.__statehubStopRecovery, true)"
}
