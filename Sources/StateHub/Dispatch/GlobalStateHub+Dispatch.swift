import Foundation
import JSEngine
import Trace

/// Native → web actions: docs/PROTOCOL.md A.5.3–A.5.4.
extension GlobalStateHub {
    /// Runs an action of a store in the page that is authoritative for it, and returns what
    /// the action returned (a promise's settled value for async actions).
    ///
    /// When the result arrives, the action's mutations have already been applied to the
    /// mirror: the plugin posts them before the result.
    ///
    /// - Parameters:
    ///   - args: the action's arguments (tagged values are decoded into `Date`, `Map`…).
    ///   - timeout: defaults to `Configuration.dispatchTimeout`.
    /// - Returns: the action's return value in the tagged encoding of docs/PROTOCOL.md A.3,
    ///   as the page sent it: an action that returns nothing (or a promise of nothing) gives
    ///   `TaggedValue.undefined` (test it with `isUndefined`), one that returns `null` gives
    ///   `.null`; dates, maps, `NaN`… come tagged too (`untagged()` turns them into JSON).
    /// - Throws: `StateHubError`: `.unknownStore`, `.unknownAction`, `.actionThrew` (message
    ///   and JavaScript stack), `.engineGone`, `.storeDisposed`, `.timeout`, `.badReply`.
    @discardableResult
    public func dispatch(store storeId: String, action: String, args: [JSONValue] = [], timeout: Duration? = nil) async throws -> JSONValue {
        try await dispatch(store: storeId, action: action, args: args, timeout: timeout, admit: nil)
    }

    /// `admit`, when given, runs under the lock once the page and the messageId are chosen,
    /// before anything is sent: an error it returns fails the dispatch unsent (a transaction
    /// step, docs/transactions.md).
    func dispatch(store storeId: String, action: String, args: [JSONValue], timeout: Duration?,
                  admit: ((inout HubState, _ pageID: String, _ messageId: String) -> (any Error)?)?) async throws -> JSONValue {
        let timeout = timeout ?? configuration.dispatchTimeout
        let deadline = clock.now() + timeout
        let reply = DispatchReply()
        var spin = Duration.zero
        update { state -> [HubEffect] in
            guard let host = state.stores[storeId]?.authoritative else {
                return [.resume(reply, .failure(StateHubError.unknownStore(storeId)))]
            }
            let messageId = state.nextMessageId()
            if let admit, let refusal = admit(&state, host.pageID, messageId) {
                return [.resume(reply, .failure(refusal))]
            }
            state.pending[messageId] = PendingDispatch(storeId: storeId, action: action, pageID: host.pageID,
                                                       deadline: deadline, timeout: timeout, continuation: reply)
            var effects: [HubEffect] = []
            scheduleTimeoutSweeper(for: deadline, in: &state)
            let pageID = host.pageID
            let failure: @Sendable (any Error) -> Void = { [weak self] error in
                if let engineError = error as? EngineError, let stop = engineError.stop {
                    self?.failStopped(messageId, store: storeId, action: action, pageID: pageID, stop: stop, reason: engineError.description)
                } else {
                    self?.failPending(messageId, with: StateHubError.engineGone(store: storeId, pageID: pageID))
                }
            }
            let text = OutgoingMessage.dispatchText(storeId: storeId, messageId: messageId, action: action, args: args)
            if let send = sendEffect(to: host.pageID, storeId: storeId, type: .dispatchAction, text: text, in: &state, failure: failure) {
                effects.append(send)
                if let page = state.pages[pageID], page.transport.callerMaySpin { spin = spinPolicy.budget(configuration.dispatchSpin) }
            }
            return effects
        }
        let (result, spun) = await reply.wait(spinningFor: spin)
        if spin > .zero { spinPolicy.record(answeredWhileSpinning: spun) }
        return try result.get()
    }

    /// Runs an action and decodes its result as `T` (tagged values are decoded as
    /// `TaggedValue` documents: dates, `undefined` → `nil`…).
    ///
    /// - Throws: everything `dispatch(store:action:args:timeout:)` throws, and
    ///   `StateHubError.resultDecoding` naming what did not fit.
    public func dispatch<T: Decodable>(store storeId: String, action: String, args: [JSONValue] = [], timeout: Duration? = nil, as type: T.Type) async throws -> T {
        let value = try await dispatch(store: storeId, action: action, args: args, timeout: timeout)
        do {
            return try value.untagged().decode(T.self, decoder: TaggedValue.decoder)
        } catch {
            throw StateHubError.resultDecoding(store: storeId, action: action, reason: String(describing: error))
        }
    }

    /// The page stopped the action at its time limit (the action itself, or an `await` loop
    /// it left running): a typed error to the caller, and the stop recorded (`pageStopped`).
    func failStopped(_ messageId: String, store storeId: String, action: String, pageID: String, stop: ScriptStop, reason: String) {
        pageStopped(pageID: pageID, stop: stop, storeId: storeId, action: action, reason: reason)
        failPending(messageId, with: StateHubError.stopped(store: storeId, action: action, pageID: pageID, reason: reason))
    }

    /// A script of the page was stopped at its time limit (any kind: a script's top level, an
    /// action, a timer, a microtask, or a turn the limit cannot stop): a `stopped` record in
    /// the trace (docs/trace.md), a problem, and every store of the page resynced.
    func pageStopped(pageID: String, stop: ScriptStop, storeId: String? = nil, action: String? = nil, reason: String? = nil) {
        var payload: JSONValue.ObjectMembers = ["kind": .string(stop.kind.rawValue), "entry": .string(stop.entry.rawValue),
                                                "after": .number(Double(stop.after.components.seconds) + Double(stop.after.components.attoseconds) / 1e18), "reason": .string(reason ?? stop.description)]
        if let file = stop.sourceURL { payload["file"] = .string(file) }
        if let line = stop.line { payload["line"] = .number(Double(line)) }
        if let action { payload["action"] = .string(action) }
        configuration.trace?.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: storeId,
                                    type: TraceReplay.stoppedRecordType, message: JSONValue.object(payload).jsonText(), note: stop.description)
        update { state in
            guard state.pages[pageID] != nil else { return [] }
            let kind: HubProblem.Kind = action.map { .stopped(action: $0, reason: reason ?? stop.description) } ?? .scriptStopped(stop)
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: kind, stop: stop), in: &state)]
            // The stop dropped the page's queued microtasks, the plugin's flush among them:
            // writes made before it would never reach the mirrors. Every store of that page is
            // resynced (PROTOCOL.md A.5.9, reason `stopped`).
            // A store already awaiting a resync is asked again: the stop may have cut the
            // answer short (a large state's `chunk`s, abandoned mid-transfer), and nothing
            // else would ever ask. Only a few times in a row: a state whose answer the limit
            // always stops would loop, so the hub then says the mirror is stale instead.
            for (id, entry) in state.stores {
                guard let index = entry.hosts.firstIndex(where: { $0.pageID == pageID }) else { continue }
                let host = entry.hosts[index]
                if host.awaitingSync {
                    guard host.stale == nil, stop.kind != .unstoppable else { continue }
                    if host.stoppedResyncs >= Self.stoppedResyncLimit {
                        let reason = "\(host.stoppedResyncs + 1) stops in a row cut the page's answer to a resync short (\(stop)); the mirror keeps its last state until the page sends its whole state"
                        state.stores[id]?.hosts[index].stale = reason
                        effects.append(problemEffect(HubProblem(pageID: pageID, storeId: id, kind: .mirrorStale(reason: reason)), in: &state))
                        continue
                    }
                    state.stores[id]?.hosts[index].stoppedResyncs += 1
                }
                if let request = requestSyncEffect(pageID: pageID, storeId: id, reason: "stopped", detail: "a script was stopped at the time limit: \(stop)", in: &state) {
                    effects.append(request)
                }
            }
            // A turn the limit cannot stop holds the page's thread: no dispatch to it will be
            // answered, so each fails now with the stop rather than at its timeout.
            if stop.kind == .unstoppable {
                for (id, pending) in state.pending where pending.pageID == pageID {
                    state.pending.removeValue(forKey: id)
                    effects.append(.resume(pending.continuation, .failure(StateHubError.stopped(
                        store: pending.storeId, action: pending.action, pageID: pageID, reason: "\(stop) (\(stop.what))"))))
                }
            }
            return effects
        }
    }

    /// How many timeouts a dispatch waits in all while its page keeps running a script.
    static let busyPageTimeouts = 10
    /// How recently the page must have run a script to count as working on a late answer.
    static let busyPageGrace: Duration = .seconds(1)

    /// How many times in a row a stop makes the hub ask again for a resync it is waiting for.
    static let stoppedResyncLimit = 3

    func failPending(_ messageId: String, with error: StateHubError) {
        let pending = state.withLock { $0.pending.removeValue(forKey: messageId) }
        pending?.continuation.resume(throwing: error)
    }

    /// One task per hub, alive while dispatches are pending, sleeping on the hub's clock until
    /// the earliest deadline and failing the dispatches past theirs. Cheaper than one timer
    /// per dispatch on the round-trip path: a dispatch starts a new task only when its
    /// deadline is earlier than the one the sweeper sleeps until (or none sleeps).
    func scheduleTimeoutSweeper(for deadline: Duration, in state: inout HubState) {
        if let sweeper = state.timeoutSweeper {
            guard deadline < sweeper.wakesAt else { return }
            sweeper.task.cancel()
        }
        let sleep = clock.sleep
        let task = Task { [weak self] in
            do { try await sleep(deadline) } catch { return } // cancelled: a sooner sweeper took over
            self?.sweepExpiredDispatches()
        }
        state.timeoutSweeper = (task, deadline)
    }

    /// Fails the dispatches past their deadline and schedules the sweeper for the next one.
    private func sweepExpiredDispatches() {
        let now = clock.now()
        let expired = state.withLock { state -> [PendingDispatch] in
            // Cancelled (under this lock) means a sooner sweeper replaced this one.
            if Task.isCancelled { return [] }
            state.timeoutSweeper = nil
            var expired: [PendingDispatch] = []
            for (id, pending) in state.pending where pending.deadline <= now {
                // The page is still running a script, or ran one a moment ago (most likely this
                // action, slowed by a loaded machine or by native work that is not the page's,
                // its answer on the way): its time limit will end it, or its host will report
                // it, so wait on, up to ten timeouts in all, instead of calling a working page
                // unresponsive. "A moment" covers the gap between a turn's
                // end and its answer reaching the hub, which a loaded machine stretches. A
                // script running now on a page whose host ends every script is waited for
                // however long it takes: its end, or its `unstoppable` stop, comes for sure
                // (a loaded machine's debug build: over a minute for a 1 s limit).
                let latest = pending.waitsAtMost ?? pending.deadline + pending.timeout * (Self.busyPageTimeouts - 1)
                if let transport = state.pages[pending.pageID]?.transport, let idle = transport.idleFor, idle < Self.busyPageGrace,
                   now < latest || (idle == .zero && transport.endsEveryScript) {
                    let next = now + min(pending.timeout, .seconds(1))
                    state.pending[id]?.deadline = now < latest ? min(latest, next) : next
                    state.pending[id]?.waitsAtMost = latest
                    continue
                }
                state.pending.removeValue(forKey: id)
                expired.append(pending)
            }
            if let next = state.pending.values.map(\.deadline).min() { scheduleTimeoutSweeper(for: next, in: &state) }
            return expired
        }
        for pending in expired {
            pending.continuation.resume(throwing: StateHubError.timeout(store: pending.storeId, action: pending.action, after: pending.timeout))
        }
    }
}
