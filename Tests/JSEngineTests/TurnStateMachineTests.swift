import Testing
@testable import JSEngine

/// Every transition of the turn lifecycle (`TurnStateMachine`, docs/engine.md, "The turn
/// lifecycle"), without JavaScriptCore or a clock: each test drives the machine through the
/// events `ScriptContext` sends for one path and checks the actions it returns. The paths the
/// engine tests cover with a real engine (RunawayTurnTests, StopRecovery*, TickBatchStopTests,
/// TimeLimitSurvivalTests) are named where they are replayed here.
@Suite("Turn lifecycle state machine", .tags(.unit))
struct TurnStateMachineTests {
    typealias Machine = TurnStateMachine
    static let page = ScriptLocation(sourceURL: "page.js", line: 3, function: "spin")
    static let other = ScriptLocation(sourceURL: "other.js", line: 9, function: "later")
    static let ours = ScriptLocation(sourceURL: "statehub:plugin", line: 1, function: "flush")
    static let shortest: UInt64 = 1_000_000

    /// A machine in a turn that began from idle.
    static func inTurn(_ purpose: Machine.Purpose = .page) -> Machine {
        var machine = Machine()
        #expect(machine.entryBegins(purpose) == .beginTurn)
        return machine
    }

    /// Whether a native call past the limit is refused (a free function: `#expect` cannot call
    /// a mutating member).
    static func refuses(_ machine: inout Machine, at location: ScriptLocation?) -> Bool {
        machine.nativeCallPastLimit(at: location)
    }

    /// A stopped turn's end, its probes and their outcome: the recovery is due afterwards.
    static func endStopped(_ machine: inout Machine, unreported: Bool, restoreWatchdog: Bool = false) {
        guard case .settle(let stop, let restore) = machine.entryEnds() else {
            Issue.record("the stopped turn did not settle: \(machine.state)")
            return
        }
        #expect(stop.unreported == unreported)
        #expect(restore == restoreWatchdog)
        #expect(machine.isInEntry, "the probes run inside an entry")
        #expect(machine.stopSettled(clean: true) == .settled(unreported: unreported))
    }

    // MARK: Entries

    @Test func anEntryFromIdleBeginsATurnAndItsEndEndsIt() {
        var machine = Machine()
        #expect(!machine.isInEntry)
        #expect(machine.entryBegins() == .beginTurn)
        #expect(machine.isInEntry)
        #expect(machine.state == .inTurn(.init(depth: 1, purpose: .page)))
        #expect(machine.entryEnds() == .endTurn(restoreWatchdog: false))
        #expect(machine.state == .idle(.ready))
        #expect(!machine.isInEntry)
    }

    @Test func nestedEntriesAreTheSameTurn() {
        var machine = Self.inTurn()
        #expect(machine.entryBegins() == .nest)
        #expect(machine.entryBegins() == .nest)
        #expect(machine.state == .inTurn(.init(depth: 3, purpose: .page)))
        #expect(machine.entryEnds() == ExitAction.none)
        #expect(machine.entryEnds() == ExitAction.none)
        #expect(machine.isInEntry)
        #expect(machine.entryEnds() == .endTurn(restoreWatchdog: false))
    }
    typealias ExitAction = Machine.ExitAction

    @Test func aClosedContextRefusesEveryEntry() {
        var machine = Machine()
        machine.close()
        #expect(machine.entryBegins() == .refuse)
        #expect(machine.entryEnds() == ExitAction.none)
        #expect(machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest) == .terminate(locate: false))
        #expect(!Self.refuses(&machine, at: Self.page))
        #expect(machine.takeUnreportedStop() == nil)
    }

    /// `close()` inside a turn (the owner closes the engine from a native call): the entry's
    /// end has nothing left to do.
    @Test func aContextClosedInsideATurnEndsItWithNothingToDo() {
        var machine = Self.inTurn()
        machine.close()
        #expect(machine.entryEnds() == ExitAction.none)
        #expect(machine.state == .closed)
    }

    // MARK: The watchdog

    /// TimeLimitSurvivalTests.topLevel: the watchdog stops the entry, whose exception tells the
    /// caller; the turn settles without a second report, and the recovery is due.
    @Test func aWatchdogStopToldToTheCallerIsSettledUnreported() {
        var machine = Self.inTurn()
        #expect(machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest) == .terminate(locate: true))
        machine.stopLocated(at: Self.page)
        #expect(machine.takeUnreportedStop() != nil)
        #expect(machine.stopPlace.location == Self.page)
        #expect(machine.takeUnreportedStop() == nil, "a stop is told once")
        Self.endStopped(&machine, unreported: false)
        #expect(machine.state == .idle(.recoveryDue))
        #expect(machine.nextEntryRunsCodeFirst)
    }

    /// TimeLimitSurvivalTests.promiseReaction: the stop hits a microtask drained as the entry
    /// returns; no caller hears of it, so its settling reports it.
    @Test func aStopNoCallerTookIsReportedWhenSettled() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        Self.endStopped(&machine, unreported: true)
    }

    /// A stop after one the caller was told of (the plugin's flush stopped after the action)
    /// is unreported again; the first page place keeps the blame.
    @Test func aLaterStopInTheTurnRearmsTheReportAndKeepsTheFirstPlace() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        _ = machine.takeUnreportedStop()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.other)
        guard case .settle(let stop, _) = machine.entryEnds() else { Issue.record("no settle"); return }
        #expect(stop.unreported)
        #expect(machine.stopPlace.location == Self.page)
    }

    /// StateHub's own scripts never take the blame from the page's code.
    @Test func ourOwnScriptsYieldTheBlameToThePage() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.ours)
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        #expect(machine.takeUnreportedStop() != nil)
        #expect(machine.stopPlace.location == Self.page)
    }

    /// Native time ran the clock (a large write): the page goes on, the watchdog restarts with
    /// what is left (never under the shortest restart), and the configured limit comes back as
    /// the turn ends.
    @Test func theWatchdogLetsThePageGoOnWhenNativeWorkRanTheClock() {
        var machine = Self.inTurn()
        #expect(machine.watchdogFires(pageBudgetLeft: { 50_000_000 }, shortestRestart: Self.shortest) == .restart(nanoseconds: 50_000_000))
        #expect(machine.watchdogFires(pageBudgetLeft: { 10 }, shortestRestart: Self.shortest) == .restart(nanoseconds: Self.shortest))
        #expect(machine.takeUnreportedStop() == nil, "a restart is no stop")
        #expect(machine.entryEnds() == .endTurn(restoreWatchdog: true))
        #expect(machine.state == .idle(.ready))
    }

    /// A restarted watchdog that then stops the turn: settled, and the configured limit restored.
    @Test func aRestartedWatchdogThatStopsRestoresTheLimitAsTheTurnSettles() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 5_000_000 }, shortestRestart: Self.shortest)
        #expect(machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest) == .terminate(locate: true))
        Self.endStopped(&machine, unreported: true, restoreWatchdog: true)
    }

    /// A trap left pending fires while the probes run: they take it, and nothing is recorded.
    @Test func theWatchdogDuringTheProbesTerminatesWithoutARecord() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        _ = machine.takeUnreportedStop()
        guard case .settle = machine.entryEnds() else { Issue.record("no settle"); return }
        #expect(machine.watchdogFires(pageBudgetLeft: { 1 }, shortestRestart: Self.shortest) == .terminate(locate: false))
        #expect(machine.takeUnreportedStop() == nil)
        #expect(machine.stopSettled(clean: true) == .settled(unreported: false))
    }

    /// TimeLimitSurvivalTests.aStopThatClosesTheContextEndsNoProtectionThroughIt: probes that
    /// keep failing close the context; every later entry is refused.
    @Test func probesThatKeepFailingCloseTheContext() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        guard case .settle = machine.entryEnds() else { Issue.record("no settle"); return }
        #expect(machine.stopSettled(clean: false) == .close)
        #expect(machine.state == .closed)
        #expect(machine.entryBegins() == .refuse)
    }

    // MARK: Native calls past the limit

    /// RunawayTurnTests.selfRequeuingQueueMicrotaskIsStopped: past the limit with no page frame
    /// in sight, the stop is put off (at most `maximumDeferredStops` times); the first native
    /// call with the page's frame is refused, and so is every later one (forcing). The watchdog
    /// does not let a forcing turn go on.
    @Test func aNativeCallPastTheLimitIsPutOffThenRefusedAndTheTurnForces() {
        var machine = Self.inTurn()
        for _ in 0..<3 { #expect(!Self.refuses(&machine, at: Self.ours)) }
        #expect(!Self.refuses(&machine, at: nil))
        #expect(!machine.isForcingStop)
        #expect(Self.refuses(&machine, at: Self.page))
        #expect(machine.isForcingStop)
        #expect(machine.watchdogFires(pageBudgetLeft: { 50_000_000 }, shortestRestart: Self.shortest) == .terminate(locate: true))
        machine.stopLocated(at: Self.ours)
        Self.endStopped(&machine, unreported: true)
        #expect(!machine.isForcingStop, "forcing ends with its turn")
    }

    /// RunawayTurnTests.awaitLoopCallingNativeCodeIsStopped: a loop whose every native call
    /// names only our own scripts is still stopped, after `maximumDeferredStops` calls.
    @Test func theStopIsPutOffOnlySoManyTimes() {
        var machine = Self.inTurn()
        for _ in 0..<Machine.maximumDeferredStops { #expect(!Self.refuses(&machine, at: Self.ours)) }
        #expect(Self.refuses(&machine, at: Self.ours))
        let stop = machine.takeUnreportedStop()
        #expect(stop?.forcing == true)
        #expect(machine.stopPlace.forcedAt == Self.ours)
    }

    /// The forced place is where the page was: it names the stop when the watchdog's
    /// backtrace then holds only builtins.
    @Test func aForcedStopIsNamedByWhereThePageWas() {
        var machine = Self.inTurn()
        #expect(Self.refuses(&machine, at: Self.page))
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: nil)
        #expect(machine.takeUnreportedStop() != nil)
        #expect(machine.stopPlace.location == Self.page)
    }

    /// RunawayTurnTests.aCompiledLoopIsStoppedAgainAfterAStopAtANativeCall: the turn after a
    /// forced stop starts clean (not forcing, nothing deferred) and its watchdog stops it.
    @Test func theTurnAfterAForcedStopStartsClean() {
        var machine = Self.inTurn()
        #expect(Self.refuses(&machine, at: Self.page))
        Self.endStopped(&machine, unreported: true)
        #expect(machine.entryBegins(.recovery) == .beginTurn)
        #expect(machine.state == .inTurn(.init(depth: 1, purpose: .recovery)))
        _ = machine.entryEnds()
        #expect(machine.entryBegins() == .beginTurn)
        #expect(!machine.isForcingStop)
        #expect(machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest) == .terminate(locate: true))
    }

    @Test func nativeCallsOutsideATurnAreNeverRefused() {
        var machine = Machine()
        #expect(!Self.refuses(&machine, at: Self.page))
        #expect(machine.state == .idle(.ready))
    }

    // MARK: Stop recovery

    /// StopRecoveryTests: the entry after a stop runs the recovery first, as a turn of its own;
    /// entries during its attempts do not start it again; then the entry begins its own turn.
    @Test func theEntryAfterAStopRunsTheRecoveryFirst() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        #expect(machine.entryBegins() == .runRecoveryFirst)
        #expect(machine.state == .idle(.recoveryDue), "asking does not change the state")
        machine.recoveryBegins()
        #expect(!machine.nextEntryRunsCodeFirst)
        #expect(machine.entryBegins(.recovery) == .beginTurn)
        #expect(machine.entryEnds() == .endTurn(restoreWatchdog: false))
        #expect(machine.state == .idle(.recovering))
        // Something the recovery's report calls enters between attempts: a plain turn.
        #expect(machine.entryBegins() == .beginTurn)
        #expect(machine.entryEnds() == .endTurn(restoreWatchdog: false))
        #expect(machine.state == .idle(.recovering))
        machine.recoveryEnds()
        #expect(machine.state == .idle(.ready))
        #expect(machine.entryBegins() == .beginTurn)
    }

    /// RunawayTurnTests.aRunawayStopRecoveryDoesNotHoldTheNextTurn and StopRecoveryTests'
    /// recovery stopped again and again: each stopped attempt settles back into the
    /// recovery's attempts (not into a new recovery due), and when they end the caller's turn
    /// begins with its own watchdog.
    @Test func aStoppedRecoveryAttemptReturnsToTheAttempts() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        #expect(machine.entryBegins() == .runRecoveryFirst)
        machine.recoveryBegins()
        for _ in 0..<4 {
            #expect(machine.entryBegins(.recovery) == .beginTurn)
            _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
            #expect(machine.takeUnreportedStop() != nil, "the attempt's exception tells its loop")
            guard case .settle = machine.entryEnds() else { Issue.record("no settle"); return }
            #expect(machine.stopSettled(clean: true) == .settled(unreported: false))
            #expect(machine.state == .idle(.recovering))
        }
        machine.recoveryEnds()
        #expect(machine.entryBegins() == .beginTurn)
        #expect(machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest) == .terminate(locate: true))
    }

    /// A recovery whose probes fail closes the context: the caller's entry is refused.
    @Test func aRecoveryThatClosesTheContextRefusesTheCaller() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        machine.recoveryBegins()
        _ = machine.entryBegins(.recovery)
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        _ = machine.entryEnds()
        #expect(machine.stopSettled(clean: false) == .close)
        machine.recoveryEnds()
        #expect(machine.entryBegins() == .refuse)
    }

    /// TickBatchStopTests: a timer batch's turn stopped inside one timer; the batch's own
    /// exception tells its caller, the turn settles, and the recovery runs before the next
    /// timer batch.
    @Test func aStoppedTimerBatchSettlesAndTheNextBatchRecoversFirst() {
        var machine = Self.inTurn()
        #expect(machine.entryBegins() == .nest, "the batch's callbacks nest in its turn")
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        #expect(machine.entryEnds() == ExitAction.none)
        #expect(machine.takeUnreportedStop() != nil)
        Self.endStopped(&machine, unreported: false)
        #expect(machine.entryBegins() == .runRecoveryFirst)
    }

    // MARK: Stops outside any entry

    /// TimeLimitSurvivalTests.aStopInARejectionsErrorSetterIsSettled: page code a plain API
    /// call ran outside any entry (a setter on an error's `code`) is stopped. The stop stays
    /// pending until the next entry, which settles it first and then runs the recovery.
    @Test func aStopOutsideAnyEntryIsSettledBeforeTheNextEntry() {
        var machine = Machine()
        #expect(machine.watchdogFires(pageBudgetLeft: { 50_000_000 }, shortestRestart: Self.shortest) == .terminate(locate: true),
                "outside a turn nothing is native work: the watchdog stops")
        machine.stopLocated(at: Self.page)
        #expect(machine.nextEntryRunsCodeFirst)
        #expect(!machine.isInEntry)
        let pending = Machine.Stop()
        #expect(machine.stopPlace.location == Self.page)
        #expect(machine.state == .idle(.stopPending(pending, duringRecovery: false)))
        #expect(machine.entryBegins() == .settlePendingStopFirst(pending))
        #expect(machine.isInEntry, "the probes run inside an entry")
        #expect(machine.stopSettled(clean: true) == .settled(unreported: true))
        #expect(machine.entryBegins() == .runRecoveryFirst)
    }

    /// The plain API call's exception told its caller: settled without a report.
    @Test func aStopOutsideAnyEntryToldToItsCallerIsNotReportedAgain() {
        var machine = Machine()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        #expect(machine.takeUnreportedStop() != nil)
        #expect(machine.takeUnreportedStop() == nil)
        guard case .settlePendingStopFirst = machine.entryBegins() else { Issue.record("not settled first"); return }
        #expect(machine.stopSettled(clean: true) == .settled(unreported: false))
    }

    /// Two stops outside any entry before the next one (two setters in a row): one settling,
    /// reported when either was unreported; the first page place keeps the blame.
    @Test func twoStopsOutsideAnyEntryAreSettledOnce() {
        var machine = Machine()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        _ = machine.takeUnreportedStop()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.other)
        guard case .settlePendingStopFirst = machine.entryBegins() else { Issue.record("not settled first"); return }
        #expect(machine.stopPlace.location == Self.page)
        #expect(machine.stopSettled(clean: true) == .settled(unreported: true))
    }

    /// A stop outside any entry while the recovery is due: one settling, then the recovery.
    @Test func aStopOutsideAnyEntryWhileTheRecoveryIsDueKeepsItDue() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        guard case .settlePendingStopFirst = machine.entryBegins() else { Issue.record("not settled first"); return }
        _ = machine.stopSettled(clean: true)
        #expect(machine.entryBegins() == .runRecoveryFirst)
    }

    /// Between the recovery's attempts: settled back into the attempts, not a new recovery.
    @Test func aStopOutsideAnyEntryDuringTheRecoveryReturnsToIt() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        machine.recoveryBegins()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        #expect(machine.state == .idle(.stopPending(.init(), duringRecovery: true)))
        guard case .settlePendingStopFirst = machine.entryBegins(.recovery) else { Issue.record("not settled first"); return }
        _ = machine.stopSettled(clean: true)
        #expect(machine.state == .idle(.recovering))
        #expect(machine.entryBegins(.recovery) == .beginTurn)
    }

    /// A stop outside any entry left pending as the recovery's attempts end: settled by the
    /// next entry, after which the recovery is due again.
    @Test func aStopPendingAsTheRecoveryEndsMakesItDueAgain() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        Self.endStopped(&machine, unreported: true)
        machine.recoveryBegins()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.recoveryEnds()
        #expect(machine.state == .idle(.stopPending(.init(), duringRecovery: false)))
        guard case .settlePendingStopFirst = machine.entryBegins() else { Issue.record("not settled first"); return }
        _ = machine.stopSettled(clean: true)
        #expect(machine.entryBegins() == .runRecoveryFirst)
    }

    /// Probes that fail for a stop outside any entry close the context before the entry.
    @Test func aPendingStopWhoseProbesFailClosesTheContext() {
        var machine = Machine()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        guard case .settlePendingStopFirst = machine.entryBegins() else { Issue.record("not settled first"); return }
        #expect(machine.stopSettled(clean: false) == .close)
        #expect(machine.entryBegins() == .refuse)
    }

    // MARK: Page code while a stop is unsettled

    /// StopInsideAReadTests.aThrownErrorsFields: once the turn is stopped, no entry nests in
    /// it (the termination may be pending); the turn still ends and settles as before.
    @Test func anEntryInAStoppedTurnIsRefusedWithTheStop() {
        var machine = Self.inTurn()
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        guard case .refuseStopped(let stop) = machine.entryBegins() else { Issue.record("not refused: \(machine.state)"); return }
        #expect(machine.stopPlace.location == Self.page)
        #expect(machine.state == .inTurn(.init(depth: 1, purpose: .page, stop: stop)), "a refused entry does not nest")
        Self.endStopped(&machine, unreported: true)
        #expect(machine.entryBegins() == .runRecoveryFirst)
    }

    /// A forced stop refuses a nested entry too.
    @Test func anEntryInATurnForcingItsStopIsRefused() {
        var machine = Self.inTurn()
        #expect(Self.refuses(&machine, at: Self.page))
        guard case .refuseStopped(let stop) = machine.entryBegins() else { Issue.record("not refused: \(machine.state)"); return }
        #expect(stop.forcing)
    }

    /// The unsettled stop, which keeps plain API calls from running page code, is there from the
    /// stop until its probes come back clean: in a turn, and outside any entry.
    @Test func aStopIsUnsettledFromTheStopUntilItsProbesEnd() {
        var machine = Self.inTurn()
        #expect(!machine.hasUnsettledStop)
        #expect(machine.unsettledStop == nil)
        _ = machine.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        machine.stopLocated(at: Self.page)
        #expect(machine.hasUnsettledStop)
        #expect(machine.unsettledStop != nil)
        #expect(machine.stopPlace.location == Self.page)
        _ = machine.takeUnreportedStop()
        #expect(machine.hasUnsettledStop, "told to a caller, still unsettled")
        guard case .settle = machine.entryEnds() else { Issue.record("no settle"); return }
        #expect(machine.hasUnsettledStop, "the probes run")
        _ = machine.stopSettled(clean: true)
        #expect(!machine.hasUnsettledStop)
        #expect(machine.unsettledStop == nil)

        var outside = Machine()
        _ = outside.watchdogFires(pageBudgetLeft: { 0 }, shortestRestart: Self.shortest)
        #expect(outside.hasUnsettledStop, "a plain API call's page code was stopped")
        guard case .settlePendingStopFirst = outside.entryBegins() else { Issue.record("not settled first"); return }
        #expect(outside.hasUnsettledStop)
        _ = outside.stopSettled(clean: true)
        #expect(!outside.hasUnsettledStop)
    }

    /// Settling with nothing to settle (a stray event) changes nothing.
    @Test func aStraySettlingChangesNothing() {
        var machine = Machine()
        #expect(machine.stopSettled(clean: false) == .settled(unreported: false))
        #expect(machine.state == .idle(.ready))
        machine.recoveryBegins()
        machine.recoveryEnds()
        #expect(machine.state == .idle(.ready))
        machine.stopLocated(at: Self.page)
        #expect(machine.state == .idle(.ready))
    }
}
