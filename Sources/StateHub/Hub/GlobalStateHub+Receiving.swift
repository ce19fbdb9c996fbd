import JSEngine
import Trace

/// Web → native messages: docs/PROTOCOL.md A.4–A.8.
extension GlobalStateHub {
    /// Handles one message a page posted on the `nativeBridge` channel, as if its transport
    /// had delivered it. Transports call this through the receiver `attach` installs; it is
    /// public for transports that push messages themselves, for replay, and for measuring.
    /// Messages from a page that is not attached are ignored.
    ///
    /// Runs on the caller's thread, under the hub's lock only while the mirror is updated.
    public func receive(_ text: String, from pageID: String) {
        // a large message arrives in `chunk` messages (docs/PROTOCOL.md A.11).
        if receiveChunkIfAny(text, from: pageID) { return }
        receiveWhole(text, from: pageID, assembled: false)
    }

    /// One message as its page's transport lends its UTF-8 bytes (the receiver `attach`
    /// installs): the usual message is decoded from them and no `String` is made for it unless
    /// a trace records it. Anything the one-pass decoder leaves (oversize, chunks, other shapes,
    /// malformed text) goes on as ``receive(_:from:)``, as a `String`.
    func receive(utf8 bytes: UnsafeBufferPointer<UInt8>, from pageID: String) {
        // No chunk check first: a message the decoder reads has one `type`, a StoreMessageType,
        // and "chunk" is none, so `receiveChunkIfAny` would have found no chunk in it.
        if bytes.count <= configuration.maximumMessageBytes, let message = StoreMessageDecoder.decode(utf8: bytes) {
            if let trace = configuration.trace {
                trace.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: message.storeId,
                             type: message.type.rawValue, seq: message.seq, message: String(decoding: bytes, as: UTF8.self))
            }
            update { state in handle(message, from: pageID, in: &state) }
            return
        }
        receive(String(decoding: bytes, as: UTF8.self), from: pageID)
    }

    /// One whole message; `assembled` ones were put together from chunks and may exceed the cap.
    func receiveWhole(_ text: String, from pageID: String, assembled: Bool) {
        let bytes = text.utf8.count
        if bytes > configuration.maximumMessageBytes, !assembled {
            receiveOversize(text, bytes: bytes, from: pageID)
            return
        }
        // Parse outside the lock: only the mirror update needs it.
        let message: StoreMessage
        do {
            message = try StoreMessage(text: text)
        } catch {
            configuration.trace?.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: error.storeId,
                                        type: "malformed", message: text, note: error.reason)
            update { state -> [HubEffect] in
                // Nested past what any state within the cap needs: the page is told, as for a
                // state the hub measured too deep (docs/PROTOCOL.md A.8.1), and asked once.
                if error.tooDeep, let storeId = error.storeId {
                    return tooDeepEffects(depth: JSONValue.maximumStateDepth + 1, pageID: pageID, storeId: storeId, requestSync: true, in: &state)
                }
                var effects = [problemEffect(HubProblem(pageID: pageID, storeId: error.storeId, kind: .malformedMessage(error.reason)), in: &state)]
                // Asked once: an answer that is malformed again (too deep for the parser, say)
                // must not start a loop (docs/PROTOCOL.md A.8, A.8.1).
                if let storeId = error.storeId, state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID })?.awaitingSync == false,
                   let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "bad_message", detail: error.reason, in: &state) {
                    effects.append(request)
                }
                return effects
            }
            return
        }
        configuration.trace?.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: message.storeId,
                                    type: message.type.rawValue, seq: message.seq, message: text)
        update { state in handle(message, from: pageID, in: &state) }
    }

    private func receiveOversize(_ text: String, bytes: Int, from pageID: String) {
        let storeId = Self.storeIdPrefix(of: text)
        configuration.trace?.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: storeId,
                                    type: "oversize", message: String(text.prefix(200)), note: "\(bytes) bytes, over the cap of \(configuration.maximumMessageBytes)")
        update { state -> [HubEffect] in
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .oversize(bytes: bytes, limit: configuration.maximumMessageBytes)), in: &state)]
            // An oversize answer to our own resync request would loop: ask once, then wait
            // for the next sync_state that fits (docs/PROTOCOL.md A.8).
            if let storeId, let host = state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID }), !host.awaitingSync,
               let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "oversize", detail: "\(bytes) bytes", in: &state) {
                effects.append(request)
            }
            return effects
        }
    }

    /// The store id from a message's first bytes: the plugin writes `storeId` right after `v`.
    static func storeIdPrefix(of text: String) -> String? {
        let head = String(text.utf8.prefix(256)) ?? String(text.prefix(256))
        guard let range = head.range(of: "\"storeId\":\"") else { return nil }
        let rest = head[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private func handle(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        // `index(forKey:)` and `inPlace(at:)` here and below reach entries in place: the
        // dictionaries' getters (`values[slot]` too) copy a whole `StoreEntry`, a retain and a
        // release per field, a tenth of the hub's time per write otherwise (docs/benchmarks.md).
        guard state.pages.index(forKey: pageID) != nil else { return [] }
        var effects: [HubEffect] = []
        if let violation = missingSequence(message, from: pageID, in: &state) {
            effects = violation
            // A change without its place in the sequence is refused: applied, it could not be
            // ordered, and no later gap would ever reveal it (docs/PROTOCOL.md A.4). Results and
            // errors are still read, so a caller waiting on a dispatch gets its answer.
            switch message.type {
            case .applyMutation, .storeDisposed, .syncState: return effects
            default: break
            }
        }
        switch message.type {
        case .syncState: return effects + acknowledgeRestore(message, from: pageID, in: &state) + handleSyncState(message, from: pageID, in: &state)
        case .applyMutation: return effects + handleApplyMutation(message, from: pageID, in: &state)
        case .actionResult: return effects + handleActionResult(message, from: pageID, in: &state)
        case .storeDisposed:
            guard let storeId = message.storeId else { return [] }
            // Out of sequence, the page's messages are not what the hub thinks they are: keep
            // the store (and its pending dispatches) and resync rather than dispose.
            if let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }),
               let gap = checkSequence(message, host: index, storeId: storeId, pageID: pageID, in: &state) {
                return gap
            }
            return removeHost(pageID: pageID, storeId: storeId, failure: { .storeDisposed(store: storeId, pageID: pageID) }, in: &state)
        case .error: return effects + handleError(message, from: pageID, in: &state)
        case .dispatchAction, .requestSync:
            return effects + [problemEffect(HubProblem(pageID: pageID, storeId: message.storeId,
                                             kind: .malformedMessage("\(message.type.rawValue) goes native → web, not web → native")), in: &state)]
        }
    }

    /// A message about a store this page hosts must carry a `seq` of 1 or more (a `created`
    /// snapshot starts a new sequence and is exempt). Returns the effects of a violation: a
    /// problem and one resync request.
    private func missingSequence(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect]? {
        if let seq = message.seq, seq >= 1 { return nil } // the usual case: no lookup
        guard let storeId = message.storeId, let host = state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID }) else { return nil }
        if message.type == .syncState, message.payload["reason"]?.stringValue == "created" { return nil }
        let reason = message.seq.map { "\(message.type.rawValue) with seq \($0); seq counts from 1" } ?? "\(message.type.rawValue) without seq about a store the page hosts"
        var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .protocolViolation(reason)), in: &state)]
        if !host.awaitingSync, let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "protocol", detail: reason, in: &state) {
            effects.append(request)
        }
        return effects
    }

    /// Checks `seq` against what is expected and advances it. Returns the effects of a gap.
    private func checkSequence(_ message: StoreMessage, host index: Int, storeId: String, pageID: String, in state: inout HubState) -> [HubEffect]? {
        guard let slot = state.stores.index(forKey: storeId) else { return nil }
        return checkSequence(message, host: index, slot: slot, storeId: storeId, pageID: pageID, in: &state)
    }

    /// `checkSequence` with the store's slot already looked up (one hash of the id less per write).
    private func checkSequence(_ message: StoreMessage, host index: Int, slot: Dictionary<String, StoreEntry>.Index, storeId: String, pageID: String,
                               in state: inout HubState) -> [HubEffect]? {
        guard let seq = message.seq else { return nil }
        // In place: one lookup, no copy of the entry or the host.
        let expected = state.stores.inPlace(at: slot) { entry in
            defer { entry.hosts[index].expectedSeq = seq + 1 }
            return entry.hosts[index].expectedSeq
        }
        guard seq != expected else { return nil }
        let host = state.stores.inPlace(at: slot) { $0.hosts[index] }
        // A time-limit stop that lands after a post and before the page counted it makes the
        // page's next message reuse that number (docs/PROTOCOL.md A.4). While the resync the
        // hub asked for is pending (a stop asks for one), the repeat is not a gap: its writes
        // are dropped as any are then, and the resync's state has them.
        if seq == expected - 1, host.awaitingSync { return nil }
        var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .sequenceGap(expected: expected, received: seq)), in: &state)]
        // A resync already asked for (after an oversize message, say) will cover the gap:
        // asking again on every later message would loop (docs/PROTOCOL.md A.8).
        if !host.awaitingSync,
           let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "seq_gap", detail: "expected seq \(expected), got \(seq)", in: &state) {
            effects.append(request)
        }
        return effects
    }

    private func handleSyncState(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        guard let storeId = message.storeId else { return [] }
        guard let snapshot = message.payload["state"], case .object = snapshot else {
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .malformedMessage("sync_state without an object payload.state")), in: &state)]
            // A store's state is an object: ask the page once for one (the mirror stays).
            if state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID })?.awaitingSync == false,
               let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "bad_message", detail: "state is not an object", in: &state) {
                effects.append(request)
            }
            return effects
        }
        // The parser's count bounds the state's depth (the state sits inside the payload): a
        // state known to be under the cap is not walked again (for 1 MB, half a millisecond).
        let knownShallow = message.payloadDepth.map { $0 - 1 <= JSONValue.maximumStateDepth } ?? false
        let depth = knownShallow ? 0 : snapshot.nestingDepth()
        if depth > JSONValue.maximumStateDepth {
            // The mirror stays at its last good state (stale: later writes wait for a
            // snapshot that fits). No new request: the page would answer with the same.
            if let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }) {
                state.stores[storeId]?.hosts[index].expectedSeq = (message.seq ?? 0) + 1
                state.stores[storeId]?.hosts[index].awaitingSync = true
            }
            return tooDeepEffects(depth: depth, pageID: pageID, storeId: storeId, requestSync: false, in: &state)
        }
        let reason = message.payload["reason"]?.stringValue ?? "created"
        let nextSeq = (message.seq ?? 0) + 1
        // Taken, with their problem recorded, only where the page's state is (A.13).
        let (getters, gettersProblem) = carriedGetters(message, from: pageID)
        guard var entry = state.stores[storeId] else {
            // The first page to announce a store is authoritative: its state is the mirror.
            state.stores[storeId] = StoreEntry(state: snapshot, getters: getters ?? [:], version: 1, hosts: [StoreHost(pageID: pageID, expectedSeq: nextSeq)])
            let gettersEffects = gettersProblem.map { [problemEffect($0, in: &state)] } ?? []
            return gettersEffects + changeEffects(StoreChange(storeId: storeId, version: 1, kind: .snapshot(reason: reason), state: snapshot), in: &state)
        }
        guard let index = entry.hosts.firstIndex(where: { $0.pageID == pageID }) else {
            // Another page hosts this id already: the mirror wins; hydrate the newcomer.
            entry.hosts.append(StoreHost(pageID: pageID, expectedSeq: nextSeq))
            state.stores[storeId] = entry
            return hydrate(pageID: pageID, storeId: storeId, in: &state)
        }
        entry.hosts[index].expectedSeq = nextSeq
        entry.hosts[index].awaitingSync = false
        entry.hosts[index].stoppedResyncs = 0
        entry.hosts[index].stale = nil
        let host = entry.hosts[index]
        let alone = entry.hosts.count == 1
        switch reason {
        case "hydrated" where !alone:
            // A hydration acknowledged: the page now holds the mirror's state. An older
            // acknowledgement is ignored (a newer hydration is on its way); a hydrated state
            // never replaces the mirror while other pages share the store (A.7 rule 3).
            if message.ack != nil, message.ack == host.lastHydration { entry.hosts[index].joining = false }
            state.stores[storeId] = entry
            return []
        case "resync" where !alone && message.ack != host.lastSent:
            // The page answered before applying everything the hub sent it: its state is
            // behind the hub's order, so the mirror stands and the page is brought to it.
            state.stores[storeId] = entry
            return hydrate(pageID: pageID, storeId: storeId, in: &state)
        default:
            // The page's whole state is the truth: created again, a resync, or alone.
            // Only the acknowledgement of a hydration the hub sent (its `ack`) is not the page's
            // own: a `hydrated` that acknowledges nothing is a whole state like any other
            // (taken as an acknowledgement, it would replace a held store's mirror and the unit
            // would commit it).
            let acknowledged = reason == "hydrated" && message.ack != nil && message.ack == host.lastHydration
            if let hold = entry.hold, !acknowledged {
                // It may hold writes that are not the unit's: the unit cannot tell (docs/transactions.md).
                interruptTransaction(hold.transaction, .concurrentWrite(store: storeId, pageID: pageID, detail: "the page sent its whole state (\(reason))"), in: &state)
            }
            entry.hosts[index].joining = false
            // Compared only when other pages share the store (they are hydrated on a change): a
            // deep walk of both trees, milliseconds for a megabyte, that a store alone never needs.
            let changed = !alone && !entry.state.isSemanticallyEqual(to: snapshot)
            // The replaced tree is freed off the lock and off the page's thread: freeing a large
            // state's nodes one by one costs milliseconds the page would wait for.
            let replaced = ReleasedTree(entry.state)
            entry.state = snapshot
            entry.padding = 0
            if let getters { entry.getters = getters } else if gettersProblem == nil { entry.getters = [:] }
            entry.version += 1
            state.stores[storeId] = entry
            var effects = gettersProblem.map { [problemEffect($0, in: &state)] } ?? []
            effects += changeEffects(StoreChange(storeId: storeId, version: entry.version, kind: .snapshot(reason: reason), state: snapshot), in: &state)
            effects.append(.release(replaced))
            if changed {
                for other in entry.hosts where other.pageID != pageID {
                    effects += hydrate(pageID: other.pageID, storeId: storeId, in: &state)
                }
            }
            return effects
        }
    }

    /// Sends `pageID` the mirror as a hydration and marks it joining (docs/PROTOCOL.md A.7 rule 2).
    func hydrate(pageID: String, storeId: String, in state: inout HubState) -> [HubEffect] {
        guard let entry = state.stores[storeId], let index = entry.hosts.firstIndex(where: { $0.pageID == pageID }) else { return [] }
        let messageId = state.nextMessageId()
        state.stores[storeId]?.hosts[index].joining = true
        state.stores[storeId]?.hosts[index].lastHydration = messageId
        state.stores[storeId]?.hosts[index].lastSent = messageId
        return [sendEffect(to: pageID, storeId: storeId, type: .syncState, payload: ["state": entry.state], in: &state, messageId: messageId)].compactMap { $0 }
    }

    private func handleApplyMutation(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        guard let storeId = message.storeId else { return [] }
        guard let known = state.stores.index(forKey: storeId), let index = state.stores.inPlace(at: known, { $0.hosts.firstIndex(where: { $0.pageID == pageID }) }) else {
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .unknownStore), in: &state)]
            // Scripts that ran before `attach` created stores the hub never saw: ask for them.
            if let send = sendEffect(to: pageID, storeId: storeId, type: .requestSync,
                                     payload: ["reason": "manual", "detail": "store not announced to this hub"], in: &state) {
                effects.append(send)
            }
            return effects
        }
        // (checkSequence without a gap changes the entry in place, and noteWrite only
        // `state.transactions`: `slot` stays valid.)
        let slot = known
        if let gap = checkSequence(message, host: index, slot: slot, storeId: storeId, pageID: pageID, in: &state) { return gap }
        if let transaction = state.stores.inPlace(at: slot, { $0.hold?.transaction }) {
            noteWrite(message, storeId: storeId, pageID: pageID, transaction: transaction, in: &state)
        }
        let (host, hostCount) = state.stores.inPlace(at: slot) { ($0.hosts[index], $0.hosts.count) }
        // Dropped while joining: the pending hydration overwrites these writes in the page.
        if host.awaitingSync || host.joining {
            // A page alone with the store answers the resync with its whole state, which the
            // mirror takes (handleSyncState): these writes were made before that answer and are
            // in it, so nothing of the dispatch is lost (a stop's resync does not fail every
            // dispatch that ran meanwhile). Otherwise they are charged to the
            // dispatches they belong to (their `dispatch` tags), not to whichever result comes
            // next: a stopped action's late batches name its own, already failed, dispatch.
            if host.joining || hostCount > 1 {
                for id in message.dispatches where state.pending[id]?.pageID == pageID {
                    state.pending[id]?.writesDiscarded = true
                }
            }
            return []
        }
        let mutations: [AppliedMutation]
        switch message.mutations {
        case .success(let decoded)?: mutations = decoded
        case .failure(let error)?:
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .malformedMessage(error.description)), in: &state)]
            if let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "bad_message", detail: error.description, in: &state) { effects.append(request) }
            return effects
        case nil: return []
        }
        // Refused whole, before anything applies: nothing that walks the mirror recursively
        // may meet a state deeper than the cap (docs/PROTOCOL.md A.8.1).
        for mutation in mutations {
            for op in mutation.ops {
                let depth = op.resultingDepth()
                if depth > JSONValue.maximumStateDepth {
                    return tooDeepEffects(depth: depth, pageID: pageID, storeId: storeId, requestSync: true, in: &state)
                }
            }
        }
        // Applied in place, in the dictionary's own storage: the tree is referenced once (by
        // the entry), so no container on the path is copied. A message applies whole or not at
        // all (PROTOCOL.md A.6): what each operation replaces is kept until the message is
        // through, and put back if a later one fails.
        let failure = state.stores.inPlace(at: slot) { entry in Self.apply(mutations, to: &entry.state, storePadding: &entry.padding) }
        switch failure {
        case nil: break
        case .operation(let failure)?:
            // The mirror is as it was before the message: no change to announce.
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .operationFailed(failure)), in: &state)]
            if let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "op_failed", detail: failure.description, in: &state) { effects.append(request) }
            return effects
        case .padding(let nulls, let limit, let perStore)?:
            let problem = HubProblem(pageID: pageID, storeId: storeId, kind: .paddingOverLimit(nulls: nulls, limit: limit, perStore: perStore))
            var effects = [problemEffect(problem, in: &state)]
            if state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID })?.awaitingSync == false,
               let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "padding", detail: problem.description, in: &state) {
                effects.append(request)
            }
            return effects
        }
        // A page sends only the getters whose value changed (docs/PROTOCOL.md A.13).
        let (getters, gettersProblem) = carriedGetters(message, from: pageID)
        let (version, tree) = state.stores.inPlace(at: slot) { entry in
            for (name, value) in getters ?? [:] { entry.getters[name] = value }
            entry.version += 1
            return (entry.version, entry.state)
        }
        let change = StoreChange(storeId: storeId, version: version, kind: .mutations(mutations), state: tree)
        var effects = gettersProblem.map { [problemEffect($0, in: &state)] } ?? []
        effects += changeEffects(change, in: &state)
        if hostCount > 1 {
            // Forward to every other page, joining ones too: they apply after their hydration.
            let payload: JSONValue = ["mutations": .array(mutations.map(\.wire))]
            for (otherIndex, other) in (state.stores[storeId]?.hosts ?? []).enumerated() where other.pageID != pageID {
                let messageId = state.nextMessageId()
                state.stores[storeId]?.hosts[otherIndex].lastSent = messageId
                if let send = sendEffect(to: other.pageID, storeId: storeId, type: .applyMutation, payload: payload, in: &state, messageId: messageId) {
                    effects.append(send)
                }
            }
            // The page wrote before applying everything the hub sent it: its order differs
            // from the hub's, so bring it back to the mirror (A.7 rule 4).
            if let lastSent = host.lastSent, message.ack != lastSent {
                effects += hydrate(pageID: pageID, storeId: storeId, in: &state)
            }
        }
        return effects
    }

    /// Why a message did not apply.
    private enum ApplyFailure {
        case operation(MutationOpError)
        /// Its padding would pass a bound (docs/PROTOCOL.md A.8.2).
        case padding(nulls: Int, limit: Int, perStore: Bool)
    }

    /// Applies every operation of `mutations` to `tree`, or none: on the first that fails, or
    /// passes a padding bound, `tree` is put back as it was. `storePadding` (the store's padding
    /// since its last whole state) grows by the message's when it applies.
    private static func apply(_ mutations: [AppliedMutation], to tree: inout JSONValue, storePadding: inout Int) -> ApplyFailure? {
        // One op (every `flush: 'sync'` write): `apply` leaves the tree unchanged when it throws,
        // so there is nothing to undo and no undo record to keep (an allocation per write).
        if mutations.count == 1, let only = mutations.first, only.ops.count == 1, let op = only.ops.first {
            let padding = paddingCounted(op, in: tree)
            if let refusal = paddingRefusal(message: padding, store: storePadding) { return refusal }
            do { try tree.apply(op) } catch { return .operation(error) }
            storePadding += padding
            return nil
        }
        var undo: [MutationUndo] = []
        var messagePadding = 0
        for mutation in mutations {
            for op in mutation.ops {
                messagePadding += paddingCounted(op, in: tree)
                if let refusal = paddingRefusal(message: messagePadding, store: storePadding) {
                    tree.revert(undo)
                    return refusal
                }
                do { try tree.apply(op, recordingUndoIn: &undo) } catch {
                    tree.revert(undo)
                    return .operation(error)
                }
            }
        }
        storePadding += messagePadding
        return nil
    }

    /// The padding `op` adds to `tree`, counted against the bounds; 0 for an operation past
    /// `JSONValue.maximumPadding` by itself, which fails as an operation (`operationFailed`).
    private static func paddingCounted(_ op: MutationOp, in tree: JSONValue) -> Int {
        let padding = tree.padding(of: op)
        return padding > JSONValue.maximumPadding ? 0 : padding
    }

    /// The bound a message's padding passes, if any.
    private static func paddingRefusal(message: Int, store: Int) -> ApplyFailure? {
        if message > JSONValue.maximumPaddingPerMessage {
            return .padding(nulls: message, limit: JSONValue.maximumPaddingPerMessage, perStore: false)
        }
        if store + message > JSONValue.maximumPaddingPerStore {
            return .padding(nulls: store + message, limit: JSONValue.maximumPaddingPerStore, perStore: true)
        }
        return nil
    }

    /// A message refused for its depth: a problem, an `error` message telling the page, and
    /// (for operations) one resync request.
    private func tooDeepEffects(depth: Int, pageID: String, storeId: String, requestSync: Bool, in state: inout HubState) -> [HubEffect] {
        let limit = JSONValue.maximumStateDepth
        let problem = HubProblem(pageID: pageID, storeId: storeId, kind: .tooDeep(depth: depth, limit: limit))
        var effects = [problemEffect(problem, in: &state)]
        let payload: JSONValue = ["code": "too_deep", "message": .string(problem.description),
                                  "detail": ["depth": .number(Double(depth)), "limit": .number(Double(limit))]]
        if let send = sendEffect(to: pageID, storeId: storeId, type: .error, payload: payload, in: &state) { effects.append(send) }
        if requestSync, state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID })?.awaitingSync == false,
           let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "too_deep", detail: "depth over \(limit)", in: &state) {
            effects.append(request)
        }
        return effects
    }

    private func handleActionResult(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        var effects: [HubEffect] = []
        if let storeId = message.storeId, let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }),
           let gap = checkSequence(message, host: index, storeId: storeId, pageID: pageID, in: &state) {
            effects += gap
        }
        // Only the page a dispatch went to may answer it: ids are predictable.
        guard let messageId = message.messageId, let candidate = state.pending[messageId],
              candidate.pageID == pageID, candidate.storeId == message.storeId,
              let pending = state.pending.removeValue(forKey: messageId)
        else {
            effects.append(problemEffect(HubProblem(pageID: pageID, storeId: message.storeId, kind: .unmatchedResult(messageId: message.messageId ?? "(none)")), in: &state))
            return effects
        }
        var outcome = Self.outcome(of: message.payload, for: pending)
        // Writes of this dispatch were discarded: say so rather than report a success the
        // mirror does not hold (docs/PROTOCOL.md A.7).
        if case .success = outcome, pending.writesDiscarded {
            outcome = .failure(StateHubError.writesDiscarded(store: pending.storeId, action: pending.action, pageID: pageID))
        }
        effects.append(.resume(pending.continuation, outcome))
        return effects
    }

    /// The result a dispatch's caller gets from an `action_result` payload.
    static func outcome(of payload: JSONValue.ObjectMembers, for pending: PendingDispatch) -> Result<JSONValue, any Error> {
        switch payload["ok"] {
        case .bool(true)?:
            // `undefined` stays tagged, like every value JSON cannot carry, so a caller can
            // tell an action that returned nothing from one that returned `null`. An absent
            // `value` is what `JSON.stringify` leaves of `value: undefined`.
            return .success(payload["value"] ?? TaggedValue.undefined)
        case .bool(false)?:
            let error = payload["error"]?.objectValue ?? [:]
            let code = error["code"]?.stringValue ?? "action_threw"
            switch code {
            case "unknown_action": return .failure(StateHubError.unknownAction(store: pending.storeId, action: pending.action))
            case "unknown_store": return .failure(StateHubError.unknownStore(pending.storeId))
            case "action_threw":
                return .failure(StateHubError.actionThrew(store: pending.storeId, action: pending.action, ActionFailure(
                    name: error["name"]?.stringValue ?? "Error", message: error["message"]?.stringValue ?? "",
                    stack: error["stack"]?.stringValue ?? "")))
            default:
                return .failure(StateHubError.badReply(store: pending.storeId, reason: "\(code): \(error["message"]?.stringValue ?? "")"))
            }
        default:
            return .failure(StateHubError.badReply(store: pending.storeId, reason: "action_result without a boolean payload.ok"))
        }
    }

    private func handleError(_ message: StoreMessage, from pageID: String, in state: inout HubState) -> [HubEffect] {
        var effects: [HubEffect] = []
        let storeId = message.storeId
        if let storeId, let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }),
           let gap = checkSequence(message, host: index, storeId: storeId, pageID: pageID, in: &state) {
            effects += gap
        }
        let code = message.payload["code"]?.stringValue ?? "unknown"
        let text = message.payload["message"]?.stringValue ?? ""
        let path = message.payload["path"]?.arrayValue.map { $0.compactMap(PathStep.init) }
        effects.append(problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .reportedByPage(code: code, message: text, path: path)), in: &state))
        // A forwarded operation did not apply in this page: bring it back to the mirror (A.7 rule 5).
        if code == "op_failed", let storeId, state.stores[storeId] != nil {
            effects += hydrate(pageID: pageID, storeId: storeId, in: &state)
        }
        return effects
    }
}
