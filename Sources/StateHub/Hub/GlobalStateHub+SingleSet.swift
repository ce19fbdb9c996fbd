import StateHubJSON

/// The flush-sync write's own path (docs/hub.md, "A flush-sync write"): one `set`
/// from the page that alone hosts its store, in sequence, outside any transaction, applied without
/// a `StoreMessage`, an effect list or a change nobody observes, with the getters it carries merged
/// in the same step. Everything else — another shape, a gap, a second host, a hold, a resync under
/// way, a value or getters too deep, getters that are no object, an operation that fails, a trace —
/// leaves the hub untouched here and goes the general way (`receive(utf8:from:)`), which then does
/// what it always did with the message.
extension GlobalStateHub {
    /// Handles one message from `receiver`'s page: the write path when it applies, else the general one.
    func receive(utf8 bytes: UnsafeBufferPointer<UInt8>, from receiver: PageReceiver) {
        if receiveSingleSet(utf8: bytes, from: receiver) { return }
        receive(utf8: bytes, from: receiver.pageID)
    }

    /// True when the message was a one-set write this path applied; false with the hub untouched.
    func receiveSingleSet(utf8 bytes: UnsafeBufferPointer<UInt8>, from receiver: PageReceiver) -> Bool {
        // A trace records the message before it is handled: the general path does that.
        guard configuration.trace == nil, bytes.count <= configuration.maximumMessageBytes else { return false }
        return receiver.reused.withLock { reused -> Bool in
            guard let write = StoreMessageDecoder.readSingleSet(utf8: bytes, path: &reused.path) else { return false }
            let storeId = reused.storeId(in: bytes, at: write.storeId)
            let op = MutationOp.set(path: reused.path, value: write.value)
            // Refused whole by the general path (docs/PROTOCOL.md A.8.1), which says so; getters
            // over the cap are ignored there with a problem (A.13).
            guard op.resultingDepth() <= JSONValue.maximumStateDepth else { return false }
            if let getters = write.getters, JSONValue.object(getters).nestingDepth() > JSONValue.maximumStateDepth { return false }
            var applied = false
            update { state -> [HubEffect] in
                guard let effects = applySingleSet(op, getters: write.getters, storeId: storeId, seq: write.seq, from: receiver.pageID, in: &state,
                                                   mutationType: { String(decoding: UnsafeBufferPointer(rebasing: bytes[write.mutationType]), as: UTF8.self) })
                else { return [] }
                applied = true
                return effects
            }
            return applied
        }
    }

    /// `handle` and `handleApplyMutation` for a one-set message, where they would apply it and send
    /// nothing; `nil`, with `state` untouched, anywhere else.
    private func applySingleSet(_ op: MutationOp, getters: JSONValue.ObjectMembers?, storeId: String, seq: Int, from pageID: String, in state: inout HubState,
                                mutationType: () -> String) -> [HubEffect]? {
        guard seq >= 1, state.pages.index(forKey: pageID) != nil, let slot = state.stores.index(forKey: storeId) else { return nil }
        // In place: no copy of the entry or its host (a retain and a release per field).
        let usual = state.stores.inPlace(at: slot) { entry -> Bool in
            guard entry.hold == nil, entry.hosts.count == 1 else { return false }
            return entry.hosts[0].pageID == pageID && entry.hosts[0].expectedSeq == seq && !entry.hosts[0].awaitingSync && !entry.hosts[0].joining
        }
        guard usual else { return nil }
        // `apply` leaves the tree as it was when it throws: the general path then words the failure.
        do { try state.stores.values[slot].state.apply(op) } catch { return nil }
        let version = state.stores.inPlace(at: slot) { entry -> Int in
            // Only the getters whose value changed come with a write (docs/PROTOCOL.md A.13).
            if let getters { for (name, value) in getters { entry.getters[name] = value } }
            entry.hosts[0].expectedSeq = seq + 1
            entry.version += 1
            return entry.version
        }
        // No change is made for nobody: no stream subscriber, no observer (an atomic load).
        guard !state.changeSubscribers.isEmpty || observers.mayHaveObservers else { return [] }
        let tree = state.stores.inPlace(at: slot) { $0.state }
        return changeEffects(StoreChange(storeId: storeId, version: version, kind: .mutations([AppliedMutation(type: mutationType(), ops: [op])]),
                                         state: tree), in: &state)
    }
}
