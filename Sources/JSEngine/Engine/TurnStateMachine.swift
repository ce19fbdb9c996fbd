/// The lifecycle of one context's turns, as one state machine: whether JavaScript is entered,
/// whether the running turn was stopped and how, what must run before the next turn (settling
/// a stop left outside any entry, the page's stop recovery), and when the context is gone
/// (docs/engine.md, "The turn lifecycle").
///
/// Pure: it calls no JavaScriptCore and reads no clock. `ScriptContext` tells it each event
/// (an entry begins or ends, the watchdog fires, a native call finds the turn over its limit,
/// a caller takes the stop, the probes after a stop finish, the recovery runs, the context
/// closes) and does what the returned action says. The measurements an event depends on
/// (the budget left, the place the page was) are passed in.
///
/// A *turn* is an outermost entry into JavaScript plus the microtasks JavaScriptCore drains as
/// it returns. Terms used below:
/// - *stop*: the watchdog's termination, or a native call's refusal once the turn ran past
///   its limit. Either may leave a termination pending in the VM, so every stop is *settled*
///   (probes that absorb it) before any other call into JavaScript.
/// - *unreported*: no caller was told of the stop yet (``takeUnreportedStop()``); settled so,
///   it is reported as a stop nobody awaited.
/// - *forcing*: a native call found the turn over its limit; every later outermost native call
///   of the turn is refused.
struct TurnStateMachine {
    /// Where the context is in its lifecycle.
    enum State: Equatable {
        /// No call into JavaScript under way.
        case idle(Idle)
        /// A turn runs.
        case inTurn(Turn)
        /// A stop is settled: its probes run (they count as inside an entry). `duringRecovery`:
        /// it was made while the recovery's attempts ran, and the context returns to them.
        case settling(Stop, duringRecovery: Bool)
        /// The context is gone: every later event is refused.
        case closed
    }

    /// What must happen before the next turn's own code runs.
    enum Idle: Equatable {
        /// Nothing.
        case ready
        /// A turn was stopped and settled: the page's stop recovery runs first, as a turn of its own.
        case recoveryDue
        /// The recovery's attempts run (``recoveryBegins()`` … ``recoveryEnds()``): an entry
        /// between them does not start the recovery again.
        case recovering
        /// JavaScript that a plain API call ran outside any entry (a setter, a getter, a
        /// `toJSON`) was stopped: the termination may be pending, so it is settled before
        /// anything else enters; then the recovery is due, or its attempts go on when
        /// `duringRecovery`.
        case stopPending(Stop, duringRecovery: Bool)
    }

    /// What a turn runs for.
    enum Purpose: Equatable {
        /// The page's code (a script, a call, a timer, a callback).
        case page
        /// One attempt of the page's stop recovery.
        case recovery
    }

    /// The running turn.
    struct Turn: Equatable {
        /// Calls into JavaScript under way (1 for the outermost entry).
        var depth: Int
        var purpose: Purpose
        /// The turn's stop, once there is one.
        var stop: Stop?
        /// Native calls past the limit at which the stop was put off because no page frame was
        /// in sight (at most ``TurnStateMachine/maximumDeferredStops``).
        var deferredStops = 0
        /// The watchdog let the page go on and its timer was started with what was left of the
        /// budget: the configured limit is set again when the turn ends.
        var watchdogRestarted = false
        /// The turn began while the recovery's attempts ran: its end returns to them.
        var resumesRecovery = false
    }

    /// A stop recorded in a turn. Its place is ``stopPlace``, beside the state: a
    /// `ScriptLocation` holds strings, and in here it would make every copy of the state and of
    /// the actions count references, at every entry (a native→JS call cost 45% more so).
    struct Stop: Equatable {
        /// No caller was told of it yet.
        var unreported = true
        /// A native call refused the turn: every later outermost native call is refused.
        var forcing = false
    }

    /// Where the stop of the moment was made.
    struct StopPlace: Equatable {
        /// Where the page was stopped (``ScriptLocation/blame(earlier:here:forcedAt:)``).
        var location: ScriptLocation?
        /// Where the page was when a native call found the turn over its limit.
        var forcedAt: ScriptLocation?
    }

    private(set) var state: State = .idle(.ready)

    /// The place of the ``unsettledStop`` (of the last stop, once it is settled): set when the stop
    /// is made, named by ``stopLocated(at:)`` and ``nativeCallPastLimit(at:)``.
    private(set) var stopPlace = StopPlace()

    /// A new stop, with no place yet.
    private mutating func makeStop() -> Stop {
        stopPlace = StopPlace()
        return Stop()
    }

    /// How many native calls past the limit a stop waits for one with the page's frame.
    static let maximumDeferredStops = 16

    // MARK: Queries

    /// Whether a call into JavaScript is under way (a turn, or the probes that settle one).
    var isInEntry: Bool {
        switch state {
        case .inTurn, .settling: true
        case .idle, .closed: false
        }
    }

    /// Whether the next outermost entry first runs JavaScript of its own (a pending stop's
    /// probes, the stop recovery), which allocates: values the entry reads must be protected.
    var nextEntryRunsCodeFirst: Bool {
        switch state {
        case .idle(.recoveryDue), .idle(.stopPending): true
        case .idle(.ready), .idle(.recovering), .inTurn, .settling, .closed: false
        }
    }

    /// The stop made and not settled yet: the running turn's, one pending outside any entry, or
    /// the one whose probes run; nil when there is none.
    ///
    /// JavaScriptCore may hold the stop's termination until a probe takes it, and page code run
    /// before then (a getter, a `toJSON`, a `Symbol.hasInstance` that a plain API call runs)
    /// reaches its first native call with the termination pending, where JavaScriptCore aborts
    /// the process. So while there is one, nothing may run the page's code: an entry is refused
    /// (``EntryAction/refuseStopped(_:)``) and `ScriptContext` makes no plain call that can run
    /// page code.
    var unsettledStop: Stop? {
        switch state {
        case .inTurn(let turn): turn.stop
        case .idle(.stopPending(let stop, _)), .settling(let stop, _): stop
        case .idle(.ready), .idle(.recoveryDue), .idle(.recovering), .closed: nil
        }
    }

    /// Whether there is an ``unsettledStop``; reads no payload (asked before every plain call
    /// that can run page code).
    var hasUnsettledStop: Bool {
        switch state {
        case .inTurn(let turn): turn.stop != nil
        case .idle(.stopPending), .settling: true
        case .idle(.ready), .idle(.recoveryDue), .idle(.recovering), .closed: false
        }
    }

    /// Whether a native call of the running turn is refused at once (the turn is forcing its stop).
    var isForcingStop: Bool {
        if case .inTurn(let turn) = state { return turn.stop?.forcing ?? false }
        return false
    }

    // MARK: Entries

    /// What `ScriptContext` does as a call into JavaScript begins.
    enum EntryAction: Equatable {
        /// Begin a turn: reset what is measured per turn, start its clocks.
        case beginTurn
        /// A nested entry of the running turn: nothing to do.
        case nest
        /// Settle the pending stop first (``stopSettled(clean:)``), then ask again.
        case settlePendingStopFirst(Stop)
        /// Run the stop recovery's turns first (``recoveryBegins()``), then ask again.
        case runRecoveryFirst
        /// The context is closed: throw `EngineError.closed`.
        case refuse
        /// The running turn was stopped: its termination may be pending, so no page code runs
        /// before it is settled; throw the stop.
        case refuseStopped(Stop)
    }

    /// A call into JavaScript begins.
    ///
    /// - Parameter purpose: `recovery` for an attempt of the stop recovery.
    mutating func entryBegins(_ purpose: Purpose = .page) -> EntryAction {
        if case .inTurn(let turn) = state, let stop = turn.stop { return .refuseStopped(stop) }
        switch state {
        case .inTurn(var turn):
            turn.depth += 1
            state = .inTurn(turn)
            return .nest
        case .settling:
            // The probes call nothing that enters; a nested entry is still the same turn's.
            return .nest
        case .idle(.ready):
            state = .inTurn(Turn(depth: 1, purpose: purpose))
            return .beginTurn
        case .idle(.recoveryDue):
            guard purpose == .page else {
                state = .inTurn(Turn(depth: 1, purpose: purpose))
                return .beginTurn
            }
            return .runRecoveryFirst
        case .idle(.recovering):
            state = .inTurn(Turn(depth: 1, purpose: purpose, resumesRecovery: true))
            return .beginTurn
        case .idle(.stopPending(let stop, let duringRecovery)):
            state = .settling(stop, duringRecovery: duringRecovery)
            return .settlePendingStopFirst(stop)
        case .closed:
            return .refuse
        }
    }

    /// What `ScriptContext` does as a call into JavaScript returns.
    enum ExitAction: Equatable {
        /// A nested entry returned: nothing to do.
        case none
        /// The turn ended unstopped: end its clocks; set the configured watchdog limit again
        /// when `restoreWatchdog`.
        case endTurn(restoreWatchdog: Bool)
        /// The turn ended stopped: as `endTurn`, then run the probes and report
        /// ``stopSettled(clean:)``.
        case settle(Stop, restoreWatchdog: Bool)
    }

    /// A call into JavaScript returned (or threw).
    mutating func entryEnds() -> ExitAction {
        switch state {
        case .inTurn(var turn) where turn.depth > 1:
            turn.depth -= 1
            state = .inTurn(turn)
            return .none
        case .inTurn(let turn):
            guard let stop = turn.stop else {
                state = .idle(turn.resumesRecovery ? .recovering : .ready)
                return .endTurn(restoreWatchdog: turn.watchdogRestarted)
            }
            state = .settling(stop, duringRecovery: turn.resumesRecovery)
            return .settle(stop, restoreWatchdog: turn.watchdogRestarted)
        case .settling, .idle, .closed:
            return .none
        }
    }

    /// What the settling of a stop leads to.
    enum SettledAction: Equatable {
        /// The termination was absorbed; report the stop when it is `unreported`.
        case settled(unreported: Bool)
        /// The probes kept failing: close the context.
        case close
    }

    /// The probes after a stop finished; `clean` when one came back without a termination.
    ///
    /// The page's code was cut short wherever the stop landed: its recovery is due. A stopped
    /// recovery attempt returns to the recovery's attempts (their loop decides whether to run
    /// another).
    mutating func stopSettled(clean: Bool) -> SettledAction {
        guard case .settling(let stop, let duringRecovery) = state else { return .settled(unreported: false) }
        guard clean else {
            state = .closed
            return .close
        }
        state = .idle(duringRecovery ? .recovering : .recoveryDue)
        return .settled(unreported: stop.unreported)
    }

    // MARK: Stops

    /// What the watchdog's callback answers JavaScriptCore.
    enum WatchdogAction: Equatable {
        /// Native work ran the clock: let the page go on and start the watchdog's timer again
        /// with `nanoseconds` (what the page has left, at least `shortestRestart`).
        case restart(nanoseconds: UInt64)
        /// Terminate; when `locate`, name the place (``stopLocated(at:)``).
        case terminate(locate: Bool)
    }

    /// JavaScriptCore's watchdog fired.
    ///
    /// - Parameters:
    ///   - pageBudgetLeft: the CPU time the running turn's page code may still use; asked only
    ///     in a turn that is not forcing its stop (0 when no limit is set).
    ///   - shortestRestart: the shortest timer the watchdog is started again with: never one
    ///     that fires while the thread is still inside the trap handler.
    mutating func watchdogFires(pageBudgetLeft: () -> UInt64, shortestRestart: UInt64) -> WatchdogAction {
        switch state {
        case .inTurn(var turn):
            if !(turn.stop?.forcing ?? false) {
                let left = pageBudgetLeft()
                if left > 0 {
                    turn.watchdogRestarted = true
                    state = .inTurn(turn)
                    return .restart(nanoseconds: max(left, shortestRestart))
                }
            }
            var stop = turn.stop ?? makeStop()
            stop.unreported = true
            turn.stop = stop
            state = .inTurn(turn)
            return .terminate(locate: true)
        case .idle(let idle):
            // Page code a plain API call ran (a setter on an error's `code`): the next entry
            // settles it first.
            switch idle {
            case .ready, .recoveryDue: state = .idle(.stopPending(makeStop(), duringRecovery: false))
            case .recovering: state = .idle(.stopPending(makeStop(), duringRecovery: true))
            case .stopPending(var stop, let duringRecovery):
                stop.unreported = true
                state = .idle(.stopPending(stop, duringRecovery: duringRecovery))
            }
            return .terminate(locate: true)
        case .settling, .closed:
            // A probe takes a trap left pending: that is what it is for.
            return .terminate(locate: false)
        }
    }

    /// Names the place of the stop just made (after ``WatchdogAction/terminate(locate:)``):
    /// the first place that names page code wins, a forced stop's place before the backtrace's.
    mutating func stopLocated(at here: ScriptLocation?) {
        switch state {
        case .inTurn(let turn):
            guard turn.stop != nil else { return }
            stopPlace.location = ScriptLocation.blame(earlier: stopPlace.location, here: here, forcedAt: stopPlace.forcedAt)
        case .idle(.stopPending):
            stopPlace.location = ScriptLocation.blame(earlier: stopPlace.location, here: here, forcedAt: stopPlace.forcedAt)
        case .idle, .settling, .closed:
            break
        }
    }

    /// An outermost native call found the running turn past its limit, the page at `location`
    /// (nil: no frame of the page's in sight). Returns whether the call is refused (it throws
    /// JavaScriptCore's termination); otherwise the stop is put off to a later native call that
    /// has the page's frame, at most ``maximumDeferredStops`` times a turn.
    mutating func nativeCallPastLimit(at location: ScriptLocation?) -> Bool {
        guard case .inTurn(var turn) = state else { return false }
        if location?.isOurs ?? true, turn.deferredStops < Self.maximumDeferredStops {
            turn.deferredStops += 1
            state = .inTurn(turn)
            return false
        }
        var stop = turn.stop ?? makeStop()
        stop.unreported = true
        stop.forcing = true
        stopPlace.forcedAt = location
        stopPlace.location = ScriptLocation.blame(earlier: stopPlace.location, here: location, forcedAt: location)
        turn.stop = stop
        state = .inTurn(turn)
        return true
    }

    /// A caller is told of the stop (its entry's exception became the stop's error): returns
    /// the stop if it was unreported, and marks it reported; `nil` when there is none to tell.
    mutating func takeUnreportedStop() -> Stop? {
        switch state {
        case .inTurn(var turn):
            guard let stop = turn.stop, stop.unreported else { return nil }
            turn.stop?.unreported = false
            state = .inTurn(turn)
            return stop
        case .idle(.stopPending(var stop, let duringRecovery)):
            guard stop.unreported else { return nil }
            let told = stop
            stop.unreported = false
            state = .idle(.stopPending(stop, duringRecovery: duringRecovery))
            return told
        case .settling(var stop, let duringRecovery):
            guard stop.unreported else { return nil }
            let told = stop
            stop.unreported = false
            state = .settling(stop, duringRecovery: duringRecovery)
            return told
        case .idle, .closed:
            return nil
        }
    }

    // MARK: Recovery

    /// The stop recovery's attempts begin (after ``EntryAction/runRecoveryFirst``).
    mutating func recoveryBegins() {
        if case .idle(.recoveryDue) = state { state = .idle(.recovering) }
    }

    /// The stop recovery's attempts are over, however they ended: the recovery is not due
    /// again until the next stop.
    mutating func recoveryEnds() {
        switch state {
        case .idle(.recovering):
            state = .idle(.ready)
        case .idle(.stopPending(let stop, duringRecovery: true)):
            // Stopped outside any entry between the attempts: once settled, the recovery is
            // due again (the stop cut page code short).
            state = .idle(.stopPending(stop, duringRecovery: false))
        case .idle, .inTurn, .settling, .closed:
            break
        }
    }

    // MARK: Close

    /// The context is closed.
    mutating func close() {
        state = .closed
    }
}
