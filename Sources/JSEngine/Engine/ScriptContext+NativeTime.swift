/// Native work is not the page's: time spent in StateHub's own callbacks (the hub applying,
/// recording and redacting a store message inside `postMessage`) is left out of the page's
/// execution time limit (docs/engine.md, "Native time is not the page's").
///
/// Two clocks count a turn: the turn check at native calls (`turnIsOverBudget`) and
/// JavaScriptCore's own watchdog, which counts the thread's CPU time however it was spent. Both
/// decide with the time measured here left out: the check subtracts it, and when the watchdog
/// fires, its callback asks `turnBudgetLeft(_:)` and lets the page go on if the native time was
/// what ran the clock (`ScriptContext+TimeLimit.swift`), so a single large write whose native
/// work outlasts the limit is not stopped inside the plugin.
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
        guard nativeDepth == 1, turnLimitNanos != nil, turns.isInEntry else { return nil }
        let start = NativeCallStart(cpu: Self.threadCPUTime(), wall: EngineActivity.now())
        nativeCallStartCPU = start.cpu
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
        nativeCallStartCPU = nil
        activity.endNativeCall(wall: wall, cpu: cpu)
    }

    /// How many times the limit a whole turn may take with native time counted: a loop whose
    /// every write costs the hub far more than the page (a 4 MB string per iteration) is still
    /// stopped, after at most this many limits. Four, not more: a debug build's hub costs
    /// several times the page's own time per write, and at ten such a loop held a loaded
    /// machine's engine thread past a minute (docs/engine.md, "Native time is not the page's").
    static let nativeAllowance: UInt64 = 4
}
