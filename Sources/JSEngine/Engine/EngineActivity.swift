import Dispatch
import Foundation
import Synchronization

/// What an engine is doing now, readable from any thread while its own thread is busy.
///
/// JavaScriptCore cannot interrupt a turn whose microtasks never call native code (an
/// `await` loop, a promise chain that re-queues itself): its execution time limit counts
/// the CPU time of each microtask apart (docs/engine.md, "Execution time limit"). Such a
/// turn holds the engine thread for good, so every `await` on the engine hangs. This is
/// how the owner still learns what is running — the CLI's wall-clock limit and
/// `Configuration.onUnresponsive` read it — without touching the engine thread.
public final class EngineActivity: Sendable {
    /// Monotonic nanoseconds when the running turn began; 0 between turns.
    private let turnStarted = Atomic<UInt64>(0)
    /// Monotonic nanoseconds when the last turn ended; 0 before the first.
    private let lastTurnEnded = Atomic<UInt64>(0)
    private let timerCount = Atomic<Int>(0)
    /// The start of the last turn reported as unresponsive, so each is reported once.
    private let reportedTurn = Atomic<UInt64>(0)
    /// The start of the turn a native call found over its limit and asked JavaScriptCore to
    /// stop: that turn is stoppable, only not stopped yet (a loaded machine delays the stop).
    private let stopRequestedTurn = Atomic<UInt64>(0)
    /// The engine thread's CPU clock and its reading when the running turn began, so other
    /// threads can tell a turn that runs from one that waits for a loaded machine.
    private let cpuClock = Atomic<Int32>(-1)
    private let turnStartedCPU = Atomic<UInt64>(0)
    private let turnLimitFactorValue = Atomic<Int>(1)
    /// How many configured limits the running turn may take (1 but for an owner's evaluation
    /// given its own limit, `JavaScriptEngine.evaluate(_:sourceURL:timeLimit:)`): the
    /// unresponsive watch scales its threshold by it.
    var turnLimitFactor: Int { turnLimitFactorValue.load(ordering: .relaxed) }
    /// What the running turn entered: a script's source URL, or nil for a call into a function.
    private let entry = Mutex<String?>(nil)
    /// Whether `entry` holds a source URL: a call (no entry) after a call takes no lock.
    private let hasEntry = Atomic<Bool>(false)
    /// Wall-clock and CPU time the running turn spent in finished native calls, and when the
    /// native call under way began (0: none): native work is not the page's, so the
    /// unresponsive watch leaves it out as the time limit does (docs/engine.md).
    private let nativeWall = Atomic<UInt64>(0)
    private let nativeCPU = Atomic<UInt64>(0)
    private let nativeCallWall = Atomic<UInt64>(0)
    private let nativeCallCPU = Atomic<UInt64>(0)

    /// When this activity was created: an engine that never ran a turn is idle since then.
    private let created = EngineActivity.now()

    init() {}

    /// A copy of the activity at one moment.
    public struct Snapshot: Sendable, Equatable {
        /// How long the running turn (an entry into JavaScript and the microtasks it drains)
        /// has run; `nil` when the engine thread is not in JavaScript.
        public var busyFor: Duration?
        /// The source URL of the script the running turn evaluated; `nil` when it called a
        /// function (an action, a timer callback) or when no turn runs.
        public var entry: String?
        /// Timers waiting to fire.
        public var pendingTimers: Int
        /// How long since the last turn ended; `.zero` while one runs.
        public var idleFor: Duration = .zero
    }

    public var snapshot: Snapshot {
        let started = turnStarted.load(ordering: .acquiring)
        let now = Self.now()
        return Snapshot(
            busyFor: started == 0 ? nil : .nanoseconds(Int64(now > started ? now - started : 0)),
            entry: started == 0 ? nil : entry.withLock { $0 },
            pendingTimers: timerCount.load(ordering: .relaxed),
            idleFor: idleFor)
    }

    /// Monotonic nanoseconds (never 0).
    static func now() -> UInt64 { max(1, DispatchTime.now().uptimeNanoseconds) }

    /// Called on the engine thread once: lets other threads read its CPU time.
    func recordEngineThreadClock() {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.store(Int32(clock), ordering: .relaxed) }
    }

    /// CPU time the engine thread spent in the running turn; `nil` between turns or when unknown.
    var turnCPUTime: Duration? {
        guard turnStarted.load(ordering: .acquiring) != 0, let cpu = engineThreadCPU() else { return nil }
        return .nanoseconds(Int64(cpuSinceTurnStart(cpu)))
    }

    private func cpuSinceTurnStart(_ cpu: UInt64) -> UInt64 {
        let start = turnStartedCPU.load(ordering: .relaxed)
        return cpu > start ? cpu - start : 0
    }

    /// Wall-clock and CPU time the running turn spent in the page's own code: the turn's
    /// time without its native calls (finished ones and the one under way).
    var pageTime: (wall: Duration, cpu: Duration)? {
        let started = turnStarted.load(ordering: .acquiring)
        guard started != 0 else { return nil }
        let now = Self.now()
        var wall = now > started ? now - started : 0
        // One reading of the engine thread's CPU clock serves the turn and the call under way.
        // An unknown CPU clock counts as busy all along (the watch then goes by wall time).
        let cpuNow = engineThreadCPU()
        var cpuNanos = cpuNow.map(cpuSinceTurnStart) ?? wall
        wall = wall &- min(wall, nativeWall.load(ordering: .relaxed))
        cpuNanos = cpuNanos &- min(cpuNanos, nativeCPU.load(ordering: .relaxed))
        let callWall = nativeCallWall.load(ordering: .relaxed)
        if callWall != 0 {
            wall = wall &- min(wall, now > callWall ? now - callWall : 0)
            if let callCPU = cpuNow {
                let since = nativeCallCPU.load(ordering: .relaxed)
                cpuNanos = cpuNanos &- min(cpuNanos, callCPU > since ? callCPU - since : 0)
            }
        }
        return (.nanoseconds(Int64(wall)), .nanoseconds(Int64(cpuNanos)))
    }

    private func engineThreadCPU() -> UInt64? {
        let clock = cpuClock.load(ordering: .relaxed)
        guard clock != -1 else { return nil }
        var now = timespec()
        guard clock_gettime(clockid_t(clock), &now) == 0 else { return nil }
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The engine thread's CPU clock when the outermost native call under way began; `nil`
    /// when none is (the time limit leaves that call's time out of the page's).
    var nativeCallStartCPU: UInt64? {
        inNativeCall ? nativeCallCPU.load(ordering: .relaxed) : nil
    }

    /// Whether the engine thread is inside one of StateHub's native calls (the hub applying a
    /// write, a console call): the page's code resumes when it returns.
    var inNativeCall: Bool { nativeCallWall.load(ordering: .relaxed) != 0 }

    /// Called on the engine thread as an outermost native call begins and ends.
    func beginNativeCall(wall: UInt64, cpu: UInt64) {
        nativeCallCPU.store(cpu, ordering: .relaxed)
        nativeCallWall.store(wall, ordering: .relaxed)
    }

    func endNativeCall(wall: UInt64, cpu: UInt64) {
        nativeWall.add(wall, ordering: .relaxed)
        nativeCPU.add(cpu, ordering: .relaxed)
        nativeCallWall.store(0, ordering: .relaxed)
    }

    func beginTurn(at start: UInt64, cpu: UInt64, entry: String?, limitFactor: Int = 1) {
        if entry != nil || hasEntry.load(ordering: .relaxed) {
            self.entry.withLock { $0 = entry }
            hasEntry.store(entry != nil, ordering: .relaxed)
        }
        turnLimitFactorValue.store(max(1, limitFactor), ordering: .relaxed)
        nativeWall.store(0, ordering: .relaxed)
        nativeCPU.store(0, ordering: .relaxed)
        nativeCallWall.store(0, ordering: .relaxed)
        turnStartedCPU.store(cpu, ordering: .relaxed)
        turnStarted.store(start, ordering: .releasing)
    }

    func endTurn() {
        lastTurnEnded.store(Self.now(), ordering: .relaxed)
        turnStarted.store(0, ordering: .releasing)
    }

    /// `.zero` during a turn, the time since the last turn ended between turns (since this
    /// activity was created before the first).
    var idleFor: Duration {
        guard turnStarted.load(ordering: .acquiring) == 0 else { return .zero }
        let ended = max(lastTurnEnded.load(ordering: .relaxed), created)
        let now = Self.now()
        return .nanoseconds(Int64(now > ended ? now - ended : 0))
    }

    /// When the running turn began (monotonic nanoseconds), 0 between turns.
    var turnStart: UInt64 { turnStarted.load(ordering: .relaxed) }

    /// Called on the engine thread when the running turn was asked to stop.
    func markStopRequested() { stopRequestedTurn.store(turnStarted.load(ordering: .relaxed), ordering: .relaxed) }

    /// Whether the turn that began at `turn` was asked to stop (so it calls native code).
    func stopRequested(turn: UInt64) -> Bool { turn != 0 && stopRequestedTurn.load(ordering: .relaxed) == turn }

    /// Whether the turn that began at `turn` is reported now for the first time.
    func markReported(turn: UInt64) -> Bool { reportedTurn.exchange(turn, ordering: .relaxed) != turn }

    func setTimerCount(_ count: Int) { timerCount.store(count, ordering: .relaxed) }
}
