import JSEngine

/// The handle a transaction's body runs its steps through (docs/transactions.md).
///
/// Valid only while its unit runs: used afterwards, every method throws
/// ``TransactionError/Reason/closed``.
public final class HubTransaction: Sendable {
    /// The hub the unit runs on.
    public let hub: GlobalStateHub
    let id: Int
    /// The unit's deadline, on the hub's clock.
    let deadline: Duration

    init(hub: GlobalStateHub, id: Int, deadline: Duration) {
        self.hub = hub
        self.id = id
        self.deadline = deadline
    }

    /// Runs an action as a step of the unit: `GlobalStateHub.dispatch(store:action:args:timeout:)`,
    /// after saving and holding the store on its first touch.
    ///
    /// - Returns: the action's return value, tagged as `dispatch` returns it.
    /// - Throws: `TransactionError`: the step's own failure (`stepFailed`, `pageGone`…, with
    ///   this step), or the unit's failure so far (a concurrent write, the timeout…) without
    ///   sending anything. Any failure aborts the unit, even if the body catches it.
    @discardableResult
    public func dispatch(store storeId: String, action: String, args: [JSONValue] = []) async throws(TransactionError) -> JSONValue {
        try await runStep(store: storeId, action: action, args: args).result
    }

    /// One step: its result, and the step as the unit recorded it (for errors raised after it).
    private func runStep(store storeId: String, action: String, args: [JSONValue]) async throws(TransactionError) -> (result: JSONValue, step: TransactionStep?) {
        let slot = StepSlot()
        // The unit's own timer ends a step at the deadline; the dispatch's is only a backstop.
        let timeout = max(deadline - hub.clock.now(), .zero) + .seconds(1)
        do {
            let result = try await hub.dispatch(store: storeId, action: action, args: args, timeout: timeout) { [id, hub] state, pageID, messageId in
                hub.admitStep(id, store: storeId, action: action, pageID: pageID, messageId: messageId, into: slot, in: &state)
            }
            return (result, slot.step)
        } catch let error as TransactionError {
            throw error
        } catch {
            throw hub.stepFailed(id, error, step: slot.step, store: storeId)
        }
    }

    /// Runs an action as a step and decodes its result as `T`, as
    /// `GlobalStateHub.dispatch(store:action:args:timeout:as:)` does.
    ///
    /// - Throws: what ``dispatch(store:action:args:)`` throws, and `stepFailed(.resultDecoding)`.
    public func dispatch<T: Decodable>(store storeId: String, action: String, args: [JSONValue] = [], as type: T.Type) async throws(TransactionError) -> T {
        let (value, step) = try await runStep(store: storeId, action: action, args: args)
        do {
            return try value.untagged().decode(T.self, decoder: TaggedValue.decoder)
        } catch {
            // The step ran (its writes are the unit's): the error names it, as any step's failure does.
            throw hub.stepFailed(id, StateHubError.resultDecoding(store: storeId, action: action, reason: String(describing: error)),
                                 step: step, store: storeId)
        }
    }

    /// Saves and holds a store without running an action in it: for a store a step changes
    /// without being dispatched to (an action of one store calling another store's action).
    /// Touch it before that step: its state at this moment is what an abort restores.
    ///
    /// - Throws: `TransactionError` (`storeBusy`, `storeNotCurrent`, `stepFailed(.unknownStore)`,
    ///   or the unit's failure so far).
    public func include(store storeId: String) throws(TransactionError) {
        let failure = hub.state.withLock { hub.include(storeId, transaction: id, in: &$0) }
        if let failure { throw failure }
    }

    /// The live mirror of a store, with the unit's changes so far (what `GlobalStateHub.state(of:)`
    /// shows only after the commit); `nil` when no page hosts it.
    public func state(of storeId: String) -> JSONValue? {
        hub.state.withLock { $0.stores[storeId]?.state }
    }
}
