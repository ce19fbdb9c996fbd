import JSEngine

extension GlobalStateHub {
    /// Every change to a store's mirror from now on, as an `AsyncSequence`.
    ///
    /// Buffering: a consumer slower than the changes keeps the newest
    /// `Configuration.changeBufferLimit` changes and loses the oldest ones. Each change carries
    /// the whole new state, so the latest element is always right even after drops; compare
    /// `version`s to see that some were skipped. The sequence ends when the consumer stops
    /// iterating; it does not end when the store is removed (a `.removed` change is sent,
    /// and the store may come back).
    ///
    /// The first element, when the store is mirrored already, is a `.snapshot(reason:
    /// "current")` of its state now.
    public func changes(of storeId: String) -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream(bufferingPolicy: .bufferingNewest(configuration.changeBufferLimit))
        let id = state.withLock { state -> Int in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.changeSubscribers[storeId, default: [:]][id] = continuation
            if let entry = state.stores[storeId] {
                continuation.yield(StoreChange(storeId: storeId, version: entry.visibleVersion, kind: .snapshot(reason: "current"), state: entry.visibleState))
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.changeSubscribers[storeId]?.removeValue(forKey: id)
                if state.changeSubscribers[storeId]?.isEmpty == true { state.changeSubscribers.removeValue(forKey: storeId) }
            }
        }
        return stream
    }

    /// The effects that tell subscribers and observers of a change. Under the lock.
    func changeEffects(_ change: StoreChange, in state: inout HubState) -> [HubEffect] {
        // Held by a transaction: kept until it commits or aborts (docs/transactions.md). No
        // lookup on the hot path while no unit runs (a hold always names a running unit).
        if !state.transactions.isEmpty, state.stores[change.storeId]?.hold != nil {
            // Without its state: the release carries the final one, and intermediate trees
            // kept alive would make every later operation copy its path again.
            var held = change
            held.state = nil
            state.stores[change.storeId]?.hold?.changes.append(held)
            return []
        }
        var effects: [HubEffect] = []
        // No hash of the id while nobody subscribes to changes (the usual page).
        if !state.changeSubscribers.isEmpty, let subscribers = state.changeSubscribers[change.storeId], !subscribers.isEmpty {
            effects.append(.change(Array(subscribers.values), change))
        }
        if observers.hasObservers(of: change.storeId), state.observerUpdateScheduled.insert(change.storeId).inserted {
            effects.append(.scheduleObservers(change.storeId))
        }
        return effects
    }

    /// One main-actor hop per store however many changes arrive before it runs.
    func scheduleObserverUpdate(_ storeId: String) {
        Task { @MainActor [weak self] in
            guard let self else { return }
            let (snapshot, version) = self.state.withLock { state -> (JSONValue?, Int) in
                state.observerUpdateScheduled.remove(storeId)
                let entry = state.stores[storeId]
                return (entry?.visibleState, entry?.visibleVersion ?? 0)
            }
            self.observers.update(storeId, state: snapshot, version: version)
        }
    }
}
