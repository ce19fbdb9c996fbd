/// Native work is not the page's: time spent in StateHub's own callbacks (the hub applying,
/// recording and redacting a store message inside `postMessage`) is left out of the page's
/// execution time limit (docs/engine.md, "Native time is not the page's").
///
/// Two clocks count a turn: the turn check at native calls (`checkTurnBudget`), which
/// subtracts the time measured here, and JavaScriptCore's own watchdog, which counts the
/// thread's CPU time however it was spent. After native calls worth a tenth of the limit of CPU
/// time (`rearmAfter`), the watchdog is started again with what is left of the page's budget, so a single
/// large write whose native work outlasts the limit is not stopped inside the plugin.
extension ScriptContext {
    /// The start of one native call, from `beginNativeCall`.
    struct NativeCallStart {
        let cpu: UInt64
        let wall: UInt64
    }

    /// Called as a native function starts its body; `nil` when it is nested in another
    /// native call (only the outermost one counts) or no limit is set.
    @inline(__always)
    func beginNativeCall() -> NativeCallStart? {
        nativeDepth += 1
        guard nativeDepth == 1, turnLimitNanos != nil, entryDepth > 0 else { return nil }
        let start = NativeCallStart(cpu: Self.threadCPUTime(), wall: EngineActivity.now())
        activity.beginNativeCall(wall: start.wall, cpu: start.cpu)
        return start
    }

    /// Called as a native function's body returns (or throws).
    @inline(__always)
    func endNativeCall(_ start: NativeCallStart?) {
        nativeDepth -= 1
        guard let start else { return }
        let cpu = Self.threadCPUTime() &- start.cpu
        let wall = EngineActivity.now() &- start.wall
        nativeCPUInTurn &+= cpu
        nativeWallInTurn &+= wall
        activity.endNativeCall(wall: wall, cpu: cpu)
        nativeCPUSinceRearm &+= cpu
        guard let turnLimitNanos, nativeCPUSinceRearm >= Self.rearmAfter(limit: turnLimitNanos), !forcingStop else { return }
        nativeCPUSinceRearm = 0
        // What the page has used of its budget in this turn, native time left out. Spent:
        // the next native call's check stops the turn; until then the watchdog keeps what it had.
        let used = (Self.threadCPUTime() &- turnStartCPU) &- nativeCPUInTurn
        guard used < turnLimitNanos else { return }
        // Started again with what is left: JavaScriptCore's `setTimeLimit` restarts its timer
        // from now, and later microtasks of this turn get no more than that either.
        if installTimeLimit(seconds: Double(turnLimitNanos - used) / 1e9) { timeLimitRearmed = true }
    }

    /// Native CPU time after which JavaScriptCore's watchdog is started again: a tenth of the
    /// limit, at least 1 ms. Every start is a timer that fires a trap, and every trap makes
    /// JavaScriptCore's signal sender suspend and resume the engine thread: restarted after
    /// each 1 ms, a loop of posts made hundreds of those a second per engine, and under load
    /// JavaScriptCore's signal sender thread aborted the process twice in a dozen runs
    /// (`TickBatchStopTests`). The price: the watchdog may charge the page up to a tenth of
    /// its limit of native time; the turn check, which leaves all of it out, is exact.
    static func rearmAfter(limit: UInt64) -> UInt64 { max(1_000_000, limit / 10) }
    /// How many times the limit a whole turn may take with native time counted: a loop whose
    /// every write costs the hub far more than the page (a 4 MB string per iteration) is still
    /// stopped, after at most this many limits. Four, not more: a debug build's hub costs
    /// several times the page's own time per write, and at ten such a loop held a loaded
    /// machine's engine thread past a minute (docs/engine.md, "Native time is not the page's").
    static let nativeAllowance: UInt64 = 4
}
