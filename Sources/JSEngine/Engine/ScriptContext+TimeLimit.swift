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
/// plugin's posts, `queueMicrotask`): past the limit, JavaScriptCore's own limit is lowered
/// to 0 for the rest of the turn, so the running microtask stops at its next trap check
/// and the rest of the queue is dropped. A chain that calls nothing native cannot be
/// stopped from inside the process; `EngineActivity` and `Configuration.onUnresponsive`
/// tell the owner about it.
extension ScriptContext {
    /// Runs one call into JavaScript; the outermost one settles a stop afterwards.
    ///
    /// - Parameters:
    ///   - entry: the script's source URL, shown while the turn runs (`EngineActivity`).
    ///   - kind: what the turn is, for its stop (`script`, `call`, `timer`).
    func enter<T>(entry: String? = nil, kind: ScriptStop.Kind, _ body: () throws -> T) throws -> T {
        let outermost = entryDepth == 0
        if outermost {
            entryKind = kind
            turnStop = nil
            timeLimitFired = false
            stoppedInEntry = false
            stopLocation = nil
            forcedStopLocation = nil
            declinedTraps = 0
            nativeCPUInTurn = 0
            nativeWallInTurn = 0
            nativeCPUSinceRearm = 0
            turnStartCPU = Self.threadCPUTime()
            activity.beginTurn(at: EngineActivity.now(), cpu: turnStartCPU, entry: entry)
        }
        entryDepth += 1
        if outermost, needsStopRecovery { recoverAfterStop() }
        defer {
            entryDepth -= 1
            if outermost {
                if forcingStop || timeLimitRearmed {
                    forcingStop = false
                    timeLimitRearmed = false
                    if let limit = configuration.executionTimeLimit { _ = installTimeLimit(seconds: limit.inSeconds) }
                }
                if stoppedInEntry { settleStop() }
                activity.endTurn()
                lastTurnStop = turnStop
                if let turnStop { stopHandlers.notify(turnStop) }
            }
        }
        return try body()
    }

    /// Called at every native call: stops the turn once it has run past the limit.
    ///
    /// Counted in the engine thread's CPU time, as JavaScriptCore counts its own limit, so a
    /// loaded machine does not stop a turn early; wall-clock time (cheap to read) filters
    /// first, since it is never less than CPU time. Time spent inside native calls (the hub
    /// applying, recording and redacting a message) is not the page's and is left out; the
    /// whole turn, native time included, is still held to ``nativeAllowance`` times the limit,
    /// so a loop of writes that each cost much native work is stopped too.
    @inline(__always)
    func checkTurnBudget() {
        guard let turnLimitNanos, entryDepth > 0, nativeDepth == 0, !forcingStop else { return }
        let started = activity.turnStart
        guard started != 0 else { return }
        let wall = EngineActivity.now() &- started
        guard wall &- nativeWallInTurn > turnLimitNanos || wall > turnLimitNanos &* Self.nativeAllowance else { return }
        let cpu = Self.threadCPUTime() &- turnStartCPU
        guard cpu &- nativeCPUInTurn > turnLimitNanos || cpu > turnLimitNanos &* Self.nativeAllowance else { return }
        forcingStop = true
        activity.markStopRequested()
        // Where the page was when its turn ran out: the stop itself often lands where
        // JavaScriptCore's backtrace holds no page code (between two microtasks, or in
        // StateHub's own scripts), so this names the runaway code then. Read once per stop.
        // Its line is the page's call, inside the loop's body: the stop names the loop around it.
        forcedStopLocation = context.flatMap { PrivateJavaScriptCore.backtrace($0, frames: 64) }.flatMap(ScriptLocation.innermost(inBacktrace:))
            .map { mapped($0.atLoop(in: sources[$0.sourceURL], atHead: false)) }
        _ = installTimeLimit(seconds: 0)
    }

    /// CPU time of the calling thread, in nanoseconds.
    static func threadCPUTime() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sets JavaScriptCore's limit for the group, with the callback that records the stop.
    func installTimeLimit(seconds: Double) -> Bool {
        guard let group else { return false }
        return PrivateJavaScriptCore.setExecutionTimeLimit(group, seconds: seconds, shouldTerminate: { context, info in
            guard let info else { return true }
            let owner = Unmanaged<ScriptContext>.fromOpaque(info).takeUnretainedValue()
            let frame = context.flatMap { PrivateJavaScriptCore.backtrace($0, frames: 64) }.flatMap(ScriptLocation.innermostFrame(inBacktrace:))
            // A stop the turn check forced (limit 0) that lands where no page frame is in sight
            // (StateHub's plugin flushing between an `await` loop's microtasks), with nothing of
            // the page seen before: let a few traps pass, so the stop lands in the page's code
            // and names it; the limit stays 0, so the next check comes at once.
            if owner.shouldDeclineTrap(at: frame?.location) {
                // Declined at limit 0, JavaScriptCore's watchdog restarts its timer at 0: the
                // next trap fires at once on JavaScriptCore's own timer thread while this thread
                // is still inside the trap handler, and JavaScriptCore 2.50 then aborts the
                // process (`RELEASE_ASSERT(!m_threadStopRequested)` in
                // `VMTraps::requestThreadStopIfNeeded`, read from a core dump: the handler took
                // the new trap before the timer thread asked for the stop). A millisecond lets
                // the handler finish first (docs/reliability.md).
                _ = owner.installTimeLimit(seconds: 0.001)
                return false
            }
            owner.timeLimitFired = true
            owner.stoppedInEntry = true
            // Every stop names the loop's own line (docs/engine.md, "Which line a stop names"):
            // stopped at the loop's head, JavaScriptCore names the last expression before it
            // (ScriptLocation.loopLine reads forward); stopped inside something the body
            // called, the page's frame has the call's line (the loop around it).
            let here = frame.map { owner.mapped($0.location.atLoop(in: owner.sources[$0.location.sourceURL], atHead: $0.atTop)) }
            owner.stopLocation = ScriptLocation.blame(earlier: owner.stopLocation, here: here, forcedAt: owner.forcedStopLocation)
            return true
        }, info: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Absorbs a pending termination and reports a stop no caller saw. Gives the context up
    /// (`close()`, so later calls throw `EngineError.closed`) if probes keep failing.
    private func settleStop() {
        let unreported = timeLimitFired
        let location = stopLocation
        timeLimitFired = false
        stoppedInEntry = false
        guard let context, let probe = "void 0".jsStringRetained() else { return }
        defer { JSStringRelease(probe) }
        var clean = false
        for _ in 0..<Self.probeAttempts {
            var exception: JSValueRef?
            entryDepth += 1
            JSEvaluateScript(context, probe, nil, nil, 1, &exception)
            entryDepth -= 1
            if exception == nil { clean = true; break }
        }
        timeLimitFired = false
        stoppedInEntry = false
        needsStopRecovery = clean
        // Reported once: a stop the entry already reported (its own exception) is not
        // reported again for the microtasks stopped after it (the plugin's flush).
        if unreported, turnStop == nil, let limit = configuration.executionTimeLimit {
            let stop = ScriptStop(kind: .microtask, entry: entryKind, location: location, after: limit)
            turnStop = stop
            if !stopsGoToCaller {
                reportUnhandled(UnhandledError(kind: .timeLimitExceeded, error: JavaScriptError(
                    name: "TimeLimitExceeded", message: "stopped after \(stop.seconds) s: \(stop.what) ran past the execution time limit; the microtasks queued after it were dropped",
                    sourceURL: location?.sourceURL, line: location?.line,
                    stack: location.map { "\($0.function)@\($0.sourceURL):\($0.line)" }), stop: stop))
            }
        }
        if !clean {
            logger.error("the context stayed terminated after \(Self.probeAttempts) probes; it is closed")
            close()
        }
    }

    /// Whether a forced stop's trap at `location` passes (see `installTimeLimit`), counted.
    func shouldDeclineTrap(at location: ScriptLocation?) -> Bool {
        guard forcingStop, declinedTraps < Self.maximumDeclinedTraps, stopLocation == nil else { return false }
        if let location, !location.isOurs { return false }
        if let forcedStopLocation, !forcedStopLocation.isOurs { return false }
        declinedTraps += 1
        return true
    }

    static let probeAttempts = 4
    static let maximumDeclinedTraps = 64

    /// JavaScriptCore's termination skips `finally` blocks and drops queued microtasks, so a
    /// stop leaves the store runtime's and the plugin's counters where it landed (a write's
    /// depth stuck above 0 holds every later delivery). Before the page runs anything else,
    /// in the next turn (with its own budget, so a native call in it is not stopped for the
    /// old one), every `reset` the page's scripts registered in
    /// `globalThis.__statehubStopRecovery` runs, then every `release` in reverse order
    /// (docs/engine.md, "Recovery after a stop"). A throw in one is logged, never the caller's.
    func recoverAfterStop() {
        needsStopRecovery = false
        guard let context, let script = Self.stopRecoveryScript.jsStringRetained() else { return }
        defer { JSStringRelease(script) }
        var exception: JSValueRef?
        JSEvaluateScript(context, script, nil, nil, 1, &exception)
        if exception != nil { logger.error("the page's stop recovery threw") }
    }

    static let stopRecoveryScript = """
    (function (steps) {
      if (!Array.isArray(steps)) return;
      var failed = null, i;
      for (i = 0; i < steps.length; i++) { try { if (typeof steps[i].reset === 'function') steps[i].reset(); } catch (e) { failed = e; } }
      for (i = steps.length - 1; i >= 0; i--) { try { if (typeof steps[i].release === 'function') steps[i].release(); } catch (e) { failed = e; } }
      if (failed !== null) throw failed;
    })(globalThis.__statehubStopRecovery)
    """
}
