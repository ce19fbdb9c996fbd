import Dispatch

/// Watches an engine's turns from a dispatch queue and calls the owner's handler once for
/// each turn that runs past a limit (`JavaScriptEngine.Configuration.onUnresponsive`).
///
/// It only observes: a turn JavaScriptCore cannot stop (microtasks that never call native
/// code) keeps the engine thread, and the owner decides what to do (the CLI exits).
final class UnresponsiveMonitor: Sendable {
    /// Created and resumed in `init`, cancelled in `cancel()`; DispatchSource is thread-safe.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    init(activity: EngineActivity, after baseLimit: Duration, handler: @escaping @Sendable (EngineActivity.Snapshot) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        self.timer = timer
        // Checked eight times per limit, at most every 250 ms and at least every 20 ms, so a
        // report comes at most an eighth of the limit late.
        let period = max(20, min(250, Int(baseLimit.nanoseconds / 8_000_000)))
        timer.schedule(deadline: .now() + .milliseconds(period), repeating: .milliseconds(period))
        timer.setEventHandler {
            // One published record: the turn, its native calls and its stop request as one.
            let record = activity.current
            let started = record.turnStarted
            let snapshot = activity.snapshot(of: record)
            let limit = baseLimit * record.turnLimitFactor
            // Wall-clock and CPU time both past the limit: a turn JavaScriptCore would stop on
            // its own (a plain loop) is not reported just because a loaded machine slowed it.
            // Native work (the hub applying a large message) is not the page's: left out, as
            // the time limit leaves it out; a turn held `nativeAllowance` times as long in all is reported.
            guard started != 0, let total = snapshot.busyFor, let page = activity.pageTime(record) else { return }
            let allowance = limit * Int(ScriptContext.nativeAllowance)
            guard (page.wall >= limit && page.cpu >= limit) || (total >= allowance && (activity.turnCPUTime(record) ?? allowance) >= allowance) else { return }
            // A turn a native call already asked to stop is stoppable: on a loaded machine
            // the stop can come late, and it must not be called a turn that cannot be stopped
            // (given three times as long before that is said anyway). Counted in the page's
            // CPU time, which a loaded machine does not stretch: in wall-clock time a page
            // that got a sixth of a core ran past three limits long before its stop landed.
            if record.stopRequestedTurn == started, page.cpu < limit * 3 { return }
            // So is a turn inside one of our native calls (the hub applying a large batch): the
            // turn check stops it at its next native call, or the watchdog at its next trap
            // check, once this one returns. Seen under load: a `$patch` loop whose native work
            // took the whole turn past `nativeAllowance` limits in the middle of a hub apply was
            // reported unresponsive a few milliseconds before its stop.
            if record.nativeCallWall != 0, total < allowance * 3 { return }
            guard activity.markReported(turn: started) else { return }
            handler(snapshot)
        }
        timer.resume()
    }

    func cancel() { timer.cancel() }
}
