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
    /// Everything the engine thread publishes about its turns, as one value: written under the
    /// lock on the engine thread, read as one consistent copy by other threads (the unresponsive
    /// watch, the CLI), so no reader sees one field of a turn beside another of the next turn.
    struct Record: Sendable {
        /// Monotonic nanoseconds when the running turn began; 0 between turns.
        var turnStarted: UInt64 = 0
        /// Monotonic nanoseconds when the last turn ended; 0 before the first.
        var lastTurnEnded: UInt64 = 0
        var timerCount = 0
        /// The start of the last turn reported as unresponsive, so each is reported once.
        var reportedTurn: UInt64 = 0
        /// The start of the turn a native call found over its limit and asked JavaScriptCore
        /// to stop: that turn is stoppable, only not stopped yet (a loaded machine delays the stop).
        var stopRequestedTurn: UInt64 = 0
        /// The engine thread's CPU clock reading when the running turn began, so other
        /// threads can tell a turn that runs from one that waits for a loaded machine.
        var turnStartedCPU: UInt64 = 0
        /// How many configured limits the running turn may take (1 but for an owner's
        /// evaluation given its own limit, `JavaScriptEngine.evaluate(_:sourceURL:timeLimit:)`).
        var turnLimitFactor = 1
        /// What the running turn entered: a script's source URL, or nil for a call into a function.
        var entry: String?
        /// Wall-clock and CPU time the running turn spent in finished native calls, and when the
        /// native call under way began (wall 0: none): native work is not the page's, so the
        /// unresponsive watch leaves it out as the time limit does (docs/engine.md).
        var nativeWall: UInt64 = 0
        var nativeCPU: UInt64 = 0
        var nativeCallWall: UInt64 = 0
        var nativeCallCPU: UInt64 = 0
    }

    private let record = Mutex(Record())
    /// The engine thread's CPU clock, so other threads can read its CPU time; set once.
    private let cpuClock = Atomic<Int32>(-1)

    /// When this activity was created: an engine that never ran a turn is idle since then.
    private let created = EngineActivity.now()

    init() {}

    /// The published record, as one copy.
    var current: Record { record.withLock { $0 } }

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

    public var snapshot: Snapshot { snapshot(of: current) }

    /// The public snapshot of one published record.
    func snapshot(of record: Record) -> Snapshot {
        let now = Self.now()
        let started = record.turnStarted
        return Snapshot(
            busyFor: started == 0 ? nil : .nanoseconds(Int64(now > started ? now - started : 0)),
            entry: started == 0 ? nil : record.entry,
            pendingTimers: record.timerCount,
            idleFor: idleFor(record, now: now))
    }

    /// Monotonic nanoseconds (never 0).
    static func now() -> UInt64 { max(1, DispatchTime.now().uptimeNanoseconds) }

    /// Called on the engine thread once: lets other threads read its CPU time.
    func recordEngineThreadClock() {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.store(Int32(clock), ordering: .relaxed) }
    }

    /// CPU time the engine thread spent in the turn `record` shows; `nil` between turns or when unknown.
    func turnCPUTime(_ record: Record) -> Duration? {
        guard record.turnStarted != 0, let cpu = engineThreadCPU() else { return nil }
        return .nanoseconds(Int64(cpu > record.turnStartedCPU ? cpu - record.turnStartedCPU : 0))
    }

    /// Wall-clock and CPU time the turn `record` shows spent in the page's own code: the
    /// turn's time without its native calls (finished ones and the one under way).
    func pageTime(_ record: Record) -> (wall: Duration, cpu: Duration)? {
        let started = record.turnStarted
        guard started != 0 else { return nil }
        let now = Self.now()
        var wall = now > started ? now - started : 0
        // One reading of the engine thread's CPU clock serves the turn and the call under way.
        // An unknown CPU clock counts as busy all along (the watch then goes by wall time).
        let cpuNow = engineThreadCPU()
        var cpuNanos = cpuNow.map { $0 > record.turnStartedCPU ? $0 - record.turnStartedCPU : 0 } ?? wall
        wall = wall &- min(wall, record.nativeWall)
        cpuNanos = cpuNanos &- min(cpuNanos, record.nativeCPU)
        let callWall = record.nativeCallWall
        if callWall != 0 {
            wall = wall &- min(wall, now > callWall ? now - callWall : 0)
            if let callCPU = cpuNow {
                let since = record.nativeCallCPU
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

    /// Called on the engine thread as an outermost native call begins and ends.
    func beginNativeCall(wall: UInt64, cpu: UInt64) {
        record.withLock {
            $0.nativeCallCPU = cpu
            $0.nativeCallWall = wall
        }
    }

    func endNativeCall(wall: UInt64, cpu: UInt64) {
        record.withLock {
            $0.nativeWall &+= wall
            $0.nativeCPU &+= cpu
            $0.nativeCallWall = 0
        }
    }

    func beginTurn(at start: UInt64, cpu: UInt64, entry: String?, limitFactor: Int = 1) {
        record.withLock {
            if entry != nil || $0.entry != nil { $0.entry = entry }
            $0.turnLimitFactor = max(1, limitFactor)
            $0.nativeWall = 0
            $0.nativeCPU = 0
            $0.nativeCallWall = 0
            $0.turnStartedCPU = cpu
            $0.turnStarted = start
        }
    }

    func endTurn() {
        let now = Self.now()
        record.withLock {
            $0.lastTurnEnded = now
            $0.turnStarted = 0
        }
    }

    /// `.zero` during a turn, the time since the last turn ended between turns (since this
    /// activity was created before the first).
    var idleFor: Duration { idleFor(current, now: Self.now()) }

    private func idleFor(_ record: Record, now: UInt64) -> Duration {
        guard record.turnStarted == 0 else { return .zero }
        let ended = max(record.lastTurnEnded, created)
        return .nanoseconds(Int64(now > ended ? now - ended : 0))
    }

    /// Called on the engine thread when the running turn was asked to stop.
    func markStopRequested() { record.withLock { $0.stopRequestedTurn = $0.turnStarted } }

    /// Whether the turn that began at `turn` is reported now for the first time.
    func markReported(turn: UInt64) -> Bool {
        record.withLock {
            let first = $0.reportedTurn != turn
            $0.reportedTurn = turn
            return first
        }
    }

    func setTimerCount(_ count: Int) { record.withLock { $0.timerCount = count } }
}
