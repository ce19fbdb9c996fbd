import JSEngine

/// Holding stores for a transaction, and what interrupts one: docs/transactions.md.
extension GlobalStateHub {
    /// Admits a step under the lock, before its `dispatch_action` is sent: touches the store
    /// (saves and holds it on first use) and records the step's messageId as one of the unit's
    /// `dispatch` tags. Returns why not: the unit's failure so far, or a refusal that aborts it.
    func admitStep(_ id: Int, store storeId: String, action: String, pageID: String, messageId: String,
                   into slot: StepSlot, in state: inout HubState) -> TransactionError? {
        guard var record = state.transactions[id] else { return TransactionError(reason: .closed, step: nil) }
        if let failure = record.failure { return failure }
        if record.closed { return TransactionError(reason: .closed, step: record.lastStep) }
        let step = TransactionStep(index: record.stepCount + 1, store: storeId, action: action, pageID: pageID)
        if let reason = touch(storeId, transaction: id, record: &record, in: &state) {
            let error = TransactionError(reason: reason, step: step)
            record.failure = error
            state.transactions[id] = record
            return error
        }
        record.stepCount += 1
        record.steps[messageId] = step
        record.lastStep = step
        state.transactions[id] = record
        slot.set(step)
        return nil
    }

    /// Touches a store without a step (`HubTransaction.include(store:)`).
    func include(_ storeId: String, transaction id: Int, in state: inout HubState) -> TransactionError? {
        guard var record = state.transactions[id] else { return TransactionError(reason: .closed, step: nil) }
        if let failure = record.failure { return failure }
        if record.closed { return TransactionError(reason: .closed, step: record.lastStep) }
        let reason: TransactionError.Reason? = state.stores[storeId] == nil
            ? .stepFailed(.unknownStore(storeId)) : touch(storeId, transaction: id, record: &record, in: &state)
        if let reason {
            record.failure = TransactionError(reason: reason, step: record.lastStep)
        }
        state.transactions[id] = record
        return record.failure
    }

    /// Saves and holds a store on the unit's first touch. Returns why it cannot be.
    private func touch(_ storeId: String, transaction id: Int, record: inout TransactionRecord, in state: inout HubState) -> TransactionError.Reason? {
        guard let entry = state.stores[storeId] else { return nil } // the dispatch reports an unknown store
        if let hold = entry.hold { return hold.transaction == id ? nil : .storeBusy(store: storeId) }
        let status = entry.mirrorStatus
        guard status == .current else { return .storeNotCurrent(store: storeId, status: status) }
        state.stores[storeId]?.hold = StoreHold(transaction: id, saved: entry.state, savedVersion: entry.version)
        record.touched.append(TouchedStore(storeId: storeId, saved: entry.state, pageIDs: entry.hosts.map(\.pageID)))
        return nil
    }

    /// A step failed: the unit's failure if it is the first, and the error for the step's caller.
    func stepFailed(_ id: Int, _ error: any Error, step: TransactionStep?, store storeId: String) -> TransactionError {
        let reason: TransactionError.Reason = switch error as? StateHubError {
        case .engineGone(let store, let page)?: .pageGone(store: store, pageID: page)
        case .storeDisposed(let store, let page)?: .storeGone(store: store, pageID: page)
        case let hubError?: .stepFailed(hubError)
        case nil: .stepFailed(.badReply(store: storeId, reason: String(describing: error)))
        }
        let failure = TransactionError(reason: reason, step: step)
        state.withLock { state in
            if state.transactions[id]?.failure == nil { state.transactions[id]?.failure = failure }
        }
        return failure
    }

    /// A write reached a held store: not one of the unit's dispatches' (no `dispatch` tag, or
    /// another's, or a step's sent to another page) interrupts the unit.
    func noteWrite(_ message: StoreMessage, storeId: String, pageID: String, transaction id: Int, in state: inout HubState) {
        guard let record = state.transactions[id], !record.closed, record.failure == nil else { return }
        if message.untagged {
            interruptTransaction(id, .concurrentWrite(store: storeId, pageID: pageID, detail: "a write by the page's own code (no dispatch tag)"), in: &state)
        } else if let other = message.dispatches.first(where: { record.steps[$0]?.pageID != pageID }) {
            // A step's writes come from the page it was sent to; messageIds are sequential, so a
            // page can name another page's step. Name the action behind the tag:
            // a messageId alone means nothing to the caller.
            let whose = state.pending[other].map { "\($0.storeId).\($0.action)" }
                ?? "no longer pending: a timer or promise its action left running"
            interruptTransaction(id, .concurrentWrite(store: storeId, pageID: pageID, detail: "a write of dispatch \(other) (\(whose)), not one of the transaction's"), in: &state)
        }
    }

    /// Records the unit's failure (the first wins) while it runs; its next step, or its
    /// commit, throws it.
    func interruptTransaction(_ id: Int, _ reason: TransactionError.Reason, in state: inout HubState) {
        guard var record = state.transactions[id], !record.closed, record.failure == nil else { return }
        record.failure = TransactionError(reason: reason, step: record.currentStep(pending: state.pending))
        state.transactions[id] = record
    }

    /// Ends a store's hold and tells observers once: on commit, every held change as one
    /// (all mutations, in order, or a snapshot); on abort, only if the state is not back where
    /// observers last saw it.
    func release(_ storeId: String, transaction id: Int, committed: Bool, in state: inout HubState) -> [HubEffect] {
        guard var entry = state.stores[storeId], let hold = entry.hold, hold.transaction == id else { return [] }
        entry.hold = nil
        state.stores[storeId] = entry
        guard !hold.changes.isEmpty else { return [] }
        if !committed, entry.state.isSemanticallyEqual(to: hold.saved) { return [] }
        var mutations: [AppliedMutation] = []
        var onlyMutations = committed
        for change in hold.changes where onlyMutations {
            if case .mutations(let applied) = change.kind { mutations += applied } else { onlyMutations = false }
        }
        let kind: StoreChange.Kind = onlyMutations ? .mutations(mutations) : .snapshot(reason: "transaction")
        return changeEffects(StoreChange(storeId: storeId, version: entry.version, kind: kind, state: entry.state), in: &state)
    }
}
