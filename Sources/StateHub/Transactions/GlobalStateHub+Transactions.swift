import JSEngine

/// Transactions across engines: docs/transactions.md.
extension GlobalStateHub {
    /// Runs actions on stores of several pages as one unit: all of them take effect, or every
    /// store the unit touched is put back to its state before the unit, in its mirror and in
    /// every page hosting it.
    ///
    /// ```swift
    /// try await hub.transaction(timeout: .seconds(5)) { tx in
    ///     try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
    ///     try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
    /// }
    /// ```
    ///
    /// While the unit runs, the stores it touched are *held*: `changes(of:)`, `observe(store:)`,
    /// `mirror(_:store:)`, `state(of:)` and `version(of:)` show their state before the unit, and
    /// on commit each is released with one change holding everything the unit did. A write a
    /// page makes on its own to a held store aborts the unit, and the restore undoes that write
    /// too. A store another unit holds is refused (`storeBusy`), never waited for.
    ///
    /// - Parameters:
    ///   - timeout: bounds the unit, on the hub's clock (default `Configuration.dispatchTimeout`);
    ///     after an abort, the restore waits at most as long again for the pages' acknowledgements.
    ///   - body: the unit's steps, through the `HubTransaction` it is given. It runs in a child
    ///     task, cancelled when the timeout passes.
    /// - Returns: what `body` returned, once every held store was released.
    /// - Throws: `TransactionError` naming why (the failing step's error, a concurrent write, a
    ///   page gone, the timeout…), the step concerned, and any store that could not be restored.
    public func transaction<T: Sendable>(timeout: Duration? = nil,
                                         _ body: @escaping @Sendable (HubTransaction) async throws -> T) async throws(TransactionError) -> T {
        let timeout = timeout ?? configuration.dispatchTimeout
        let deadline = clock.now() + timeout
        let id = state.withLock { state -> Int in
            let id = state.nextTransactionID
            state.nextTransactionID += 1
            state.transactions[id] = TransactionRecord()
            return id
        }
        let transaction = HubTransaction(hub: self, id: id, deadline: deadline)
        var failure: TransactionError
        let outcome = await withTaskCancellationHandler {
            await run(body, transaction, until: deadline, timeout: timeout)
        } onCancel: {
            cancelTransaction(id, deadline: deadline, timeout: timeout)
        }
        switch outcome {
        case .success(let value):
            guard let refusal = await awaitWrites(of: id, until: deadline, timeout: timeout) ?? commit(id) else { return value }
            failure = refusal
        case .failure(let error):
            // The unit's own failure (a step's, an interruption, the timeout) comes first: the
            // body most likely threw it, or threw because of it.
            failure = state.withLock { $0.transactions[id]?.failure }
                ?? TransactionError(reason: .bodyThrew(String(describing: error)), step: state.withLock { $0.transactions[id]?.lastStep })
        }
        failure.unrestored = await restore(id, within: timeout)
        throw failure
    }

    /// Runs the body against the unit's deadline: when it passes first, the unit is closed,
    /// its pending steps fail with `timedOut`, and the body is cancelled; its outcome is
    /// still awaited (a restore must not race a step the body is sending).
    private func run<T: Sendable>(_ body: @escaping @Sendable (HubTransaction) async throws -> T, _ transaction: HubTransaction,
                                  until deadline: Duration, timeout: Duration) async -> Result<T, any Error> {
        let sleep = clock.sleep
        return await withTaskGroup(of: Result<T, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await body(transaction)) } catch { return .failure(error) }
            }
            group.addTask { [weak self] in
                do { try await sleep(deadline) } catch { return nil } // the body ended first
                self?.expireTransaction(transaction.id, after: timeout)
                return nil
            }
            var outcome: Result<T, any Error> = .failure(CancellationError())
            while let next = await group.next() {
                guard let next else {
                    group.cancelAll() // the deadline passed: stop the body, wait for its end
                    continue
                }
                outcome = next
                break
            }
            group.cancelAll()
            return outcome
        }
    }

    /// The caller's task was cancelled: the unit's failure, unless it already has one. Its body
    /// is cancelled with the task; a step already sent keeps waiting for its answer (or the
    /// deadline), since the page may be running it, and the restore must come after it.
    private func cancelTransaction(_ id: Int, deadline: Duration, timeout: Duration) {
        let cancelled = state.withLock { state -> Bool in
            guard var record = state.transactions[id], !record.closed, record.failure == nil else { return false }
            record.failure = TransactionError(reason: .cancelled, step: record.currentStep(pending: state.pending))
            state.transactions[id] = record
            return true
        }
        guard cancelled else { return }
        // `run`'s deadline timer was cancelled with the task: this one, not the caller's, still
        // ends a step under way at the deadline (a no-op once the unit is gone).
        let sleep = clock.sleep
        Task { [weak self] in
            do { try await sleep(deadline) } catch { return }
            self?.expireTransaction(id, after: timeout)
        }
    }

    /// The deadline passed: closes the unit and fails its pending steps at once.
    private func expireTransaction(_ id: Int, after timeout: Duration) {
        update { state -> [HubEffect] in
            guard var record = state.transactions[id], !record.closed else { return [] }
            record.closed = true
            let error = TransactionError(reason: .timedOut(after: timeout), step: record.currentStep(pending: state.pending))
            if record.failure == nil { record.failure = error }
            var effects: [HubEffect] = []
            for messageId in record.steps.keys {
                if let pending = state.pending.removeValue(forKey: messageId) {
                    effects.append(.resume(pending.continuation, .failure(error)))
                }
            }
            state.transactions[id] = record
            return effects
        }
    }

    /// An action name no store has (the plugin treats names starting with `$` as no action):
    /// a dispatch of it is answered at once with `unknown_action`.
    static let barrierAction = "$statehub.barrier"

    /// Waits until every write the unit's steps caused has reached the hub. The plugin posts
    /// the dispatched store's writes before the step's result (PROTOCOL.md A.5.4), but an
    /// action that calls another store's action leaves that store's batch to the end of the
    /// page's turn, after the result. One dispatch of ``barrierAction`` per page that ran a
    /// step: its answer comes after everything the page posted before (one channel, in order).
    /// Returns the unit's failure when the deadline passes first.
    private func awaitWrites(of id: Int, until deadline: Duration, timeout: Duration) async -> TransactionError? {
        let targets = state.withLock { state -> [TransactionStep] in
            var seen: Set<String> = []
            let steps = state.transactions[id]?.steps.values.sorted { $0.index < $1.index } ?? []
            return steps.filter { seen.insert($0.pageID).inserted }
        }
        for step in targets {
            let left = max(deadline - clock.now(), .milliseconds(10))
            do {
                _ = try await dispatch(store: step.store, action: Self.barrierAction, args: [], timeout: left, admit: nil)
            } catch StateHubError.timeout {
                return TransactionError(reason: .timedOut(after: timeout), step: step)
            } catch {
                continue // `unknown_action`, the answer expected; a page gone is the commit's to report
            }
        }
        return nil
    }

    /// Commits the unit if nothing failed or interrupted it and every page of its touched
    /// stores is still there: releases every held store at once. Otherwise returns why not
    /// (the unit stays, for the restore).
    private func commit(_ id: Int) -> TransactionError? {
        var refusal: TransactionError?
        update { state -> [HubEffect] in
            guard var record = state.transactions[id] else {
                refusal = TransactionError(reason: .closed, step: nil)
                return []
            }
            record.closed = true
            if record.failure == nil {
                // Interruptions are recorded as they happen; this only guards the invariant.
                for touched in record.touched {
                    let hosts = state.stores[touched.storeId].flatMap { $0.hold?.transaction == id ? $0.hosts.map(\.pageID) : nil } ?? []
                    if let lost = touched.pageIDs.first(where: { !hosts.contains($0) }) {
                        let reason: TransactionError.Reason = state.pages[lost] == nil
                            ? .pageGone(store: touched.storeId, pageID: lost) : .storeGone(store: touched.storeId, pageID: lost)
                        record.failure = TransactionError(reason: reason, step: record.lastStep)
                        break
                    }
                }
            }
            if let failure = record.failure {
                refusal = failure
                state.transactions[id] = record
                return []
            }
            let effects = record.touched.flatMap { release($0.storeId, transaction: id, committed: true, in: &state) }
            state.transactions.removeValue(forKey: id) // after the holds: a hold always names a running unit
            return effects
        }
        return refusal
    }
}
