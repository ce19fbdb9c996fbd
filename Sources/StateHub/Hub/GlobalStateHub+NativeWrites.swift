import JSEngine

extension GlobalStateHub {
    /// Writes into a store from native code, as another engine hosting the store would
    /// (docs/PROTOCOL.md A.5.8): the mirror changes first, then every page hosting the store
    /// gets the operations as one forwarded `apply_mutation`, which it applies with one
    /// `$patch` and does not echo back.
    ///
    /// What a shared document binding (docs/sync.md §4) uses to bring remote changes into a
    /// store. The change reaches ``changes(of:)`` as `.mutations` of type `type`, so a writer
    /// can recognise its own writes there.
    ///
    /// - Throws: ``StateHubError/unknownStore(_:)`` when no page hosts the store,
    ///   ``StateHubError/nativeWriteRefused(store:reason:)`` when an operation does not apply
    ///   to the mirror or nests past the depth cap; the mirror and the pages are then unchanged.
    public func write(store storeId: String, ops: [MutationOp], type: String = "native") throws(StateHubError) {
        guard !ops.isEmpty else { return }
        var refusal: StateHubError?
        update { state -> [HubEffect] in
            guard var entry = state.stores[storeId], !entry.hosts.isEmpty else {
                refusal = .unknownStore(storeId)
                return []
            }
            for op in ops where op.resultingDepth() > JSONValue.maximumStateDepth {
                refusal = .nativeWriteRefused(store: storeId, reason: "\(op.path): nests deeper than \(JSONValue.maximumStateDepth) levels")
                return []
            }
            // Applied whole or not at all, as a page's message is (A.6).
            var tree = entry.state
            entry.state = .null
            var undo: [MutationUndo] = []
            for op in ops {
                do { try tree.apply(op, recordingUndoIn: &undo) } catch {
                    tree.revert(undo)
                    entry.state = tree
                    state.stores[storeId] = entry
                    refusal = .nativeWriteRefused(store: storeId, reason: "\(error)")
                    return []
                }
            }
            entry.state = tree
            entry.version += 1
            state.stores[storeId] = entry
            if let hold = entry.hold {
                // Native code wrote a store a transaction holds (docs/transactions.md).
                interruptTransaction(hold.transaction, .concurrentWrite(store: storeId, pageID: nil, detail: "a native write of type \"\(type)\""), in: &state)
            }
            let mutation = AppliedMutation(type: type, ops: ops)
            var effects = changeEffects(StoreChange(storeId: storeId, version: entry.version, kind: .mutations([mutation]), state: tree), in: &state)
            let payload: JSONValue = ["mutations": [mutation.wire]]
            for (index, host) in entry.hosts.enumerated() {
                let messageId = state.nextMessageId()
                // A page that writes before applying this is brought back to the mirror (A.7 rule 4).
                state.stores[storeId]?.hosts[index].lastSent = messageId
                if let send = sendEffect(to: host.pageID, storeId: storeId, type: .applyMutation, payload: payload, in: &state, messageId: messageId) {
                    effects.append(send)
                }
            }
            return effects
        }
        if let refusal { throw refusal }
    }
}
