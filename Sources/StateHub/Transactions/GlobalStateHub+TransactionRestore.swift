import JSEngine

/// Putting touched stores back after an abort: docs/transactions.md, "Restore".
extension GlobalStateHub {
    /// Sets every touched store's mirror back to its saved state and hydrates every page still
    /// hosting it with that state, in one critical section; waits (at most `timeout`) for the
    /// pages' acknowledgements, then releases the holds. Returns what could not be restored.
    func restore(_ id: Int, within timeout: Duration) async -> [TransactionError.Unrestored] {
        let expiry = clock.now() + timeout
        update { state -> [HubEffect] in
            guard var record = state.transactions[id] else { return [] }
            record.closed = true
            var effects: [HubEffect] = []
            for touched in record.touched {
                let entry = state.stores[touched.storeId].flatMap { $0.hold?.transaction == id ? $0 : nil }
                for pageID in touched.pageIDs where entry?.hosts.contains(where: { $0.pageID == pageID }) != true {
                    record.unrestored.append(.init(store: touched.storeId, pageID: pageID, why: state.pages[pageID] == nil ? .pageGone : .storeGone))
                }
                guard var entry else { continue }
                entry.state = touched.saved
                entry.version += 1
                state.stores[touched.storeId] = entry
                for host in entry.hosts {
                    effects += hydrate(pageID: host.pageID, storeId: touched.storeId, in: &state)
                    guard let messageId = state.stores[touched.storeId]?.hosts.first(where: { $0.pageID == host.pageID })?.lastHydration else { continue }
                    record.awaitedRestores.insert(messageId)
                    state.awaitedRestores[messageId] = AwaitedRestore(transaction: id, storeId: touched.storeId, pageID: host.pageID)
                }
            }
            state.transactions[id] = record
            return effects
        }
        let sleep = clock.sleep
        let timer = Task { [weak self] in
            do { try await sleep(expiry) } catch { return }
            self?.expireRestores(id)
        }
        _ = try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            let settled = state.withLock { state -> Bool in
                guard state.transactions[id]?.awaitedRestores.isEmpty == false else { return true }
                state.transactions[id]?.restoreWaiter = continuation
                return false
            }
            if settled { continuation.resume(returning: .null) }
        }
        timer.cancel()
        var unrestored: [TransactionError.Unrestored] = []
        update { state -> [HubEffect] in
            guard let record = state.transactions[id] else { return [] }
            unrestored = record.unrestored
            let effects = record.touched.flatMap { release($0.storeId, transaction: id, committed: false, in: &state) }
            state.transactions.removeValue(forKey: id) // after the holds: a hold always names a running unit
            return effects
        }
        return unrestored
    }

    /// A `sync_state` `hydrated` acknowledging a restore: that page is back.
    func acknowledgeRestore(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        guard message.payload["reason"]?.stringValue == "hydrated", let ack = message.ack,
              let awaited = state.awaitedRestores[ack], awaited.pageID == pageID else { return [] }
        state.awaitedRestores.removeValue(forKey: ack)
        return settleRestore(ack, awaited, why: nil, in: &state)
    }

    /// Every restore a page that went away (or one store of it, `storeId`, disposed there) will
    /// never acknowledge: the page answers a hydration of a store it no longer has with an error.
    func settleRestores(of pageID: String, store storeId: String? = nil, why: TransactionError.Unrestored.Why, in state: inout HubState) -> [HubEffect] {
        var effects: [HubEffect] = []
        for (messageId, awaited) in state.awaitedRestores where awaited.pageID == pageID && (storeId == nil || awaited.storeId == storeId) {
            state.awaitedRestores.removeValue(forKey: messageId)
            effects += settleRestore(messageId, awaited, why: why, in: &state)
        }
        return effects
    }

    /// The restore's own time passed: the pages that did not answer are reported.
    private func expireRestores(_ id: Int) {
        update { state -> [HubEffect] in
            var effects: [HubEffect] = []
            for (messageId, awaited) in state.awaitedRestores where awaited.transaction == id {
                state.awaitedRestores.removeValue(forKey: messageId)
                effects += settleRestore(messageId, awaited, why: .notAcknowledged, in: &state)
            }
            return effects
        }
    }

    private func settleRestore(_ messageId: String, _ awaited: AwaitedRestore, why: TransactionError.Unrestored.Why?, in state: inout HubState) -> [HubEffect] {
        guard var record = state.transactions[awaited.transaction] else { return [] }
        record.awaitedRestores.remove(messageId)
        if let why { record.unrestored.append(.init(store: awaited.storeId, pageID: awaited.pageID, why: why)) }
        var effects: [HubEffect] = []
        if record.awaitedRestores.isEmpty, let waiter = record.restoreWaiter {
            record.restoreWaiter = nil
            effects.append(.resume(waiter, .success(.null)))
        }
        state.transactions[awaited.transaction] = record
        return effects
    }
}
