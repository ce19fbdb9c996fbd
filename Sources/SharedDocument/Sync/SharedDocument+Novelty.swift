// Whether an update brings anything: a sync server stores and broadcasts only updates that do
// (docs/sync.md §2.1), and refuses a read-only client's update only when it does (§2.3).

extension SharedDocument {
    /// Whether applying `update` would change this document: a struct past what the document
    /// holds (applied or kept pending), or a deletion of something not yet deleted here (or not
    /// yet here and not pending already). Reads the update and the store; changes nothing.
    /// O(structs + deleted structs covered by the update's delete set + its ranges × log(pending
    /// ranges of their client)).
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input.
    public func wouldChange(_ update: [UInt8]) throws(UpdateDecodingError) -> Bool {
        let decoded = try DecodedUpdate.read(update)
        for entry in decoded.clients {
            let state = store.state(of: entry.client)
            for wire in entry.structs where wire.kind != .skip && wire.id.clock + wire.length > state {
                return true
            }
        }
        let deletions = decoded.deleteSet
        for client in deletions.clients {
            let state = store.state(of: client)
            for range in deletions.ranges[client] ?? [] where range.length > 0 {
                let end = range.clock + range.length
                // A deletion of structs not here yet is kept pending: a change, unless the same
                // ranges are pending already (a repeated delete set).
                if end > state {
                    let start = max(range.clock, state)
                    if !pendingDeletes.covers(client: client, DeleteSet.Range(clock: start, length: end - start)) { return true }
                }
                guard let slot = store.slotIndex(of: client), var index = store.findIndex(slot: slot, range.clock) else { continue }
                while index < store.lists[slot].count {
                    let item = store.lists[slot][index]
                    guard item.id.clock < end else { break }
                    if !item.deleted { return true }
                    index += 1
                }
            }
        }
        return false
    }
}

extension SharedDocument {
    /// How many clients this document would hold after `update`: those it has structs of, those
    /// pending deletes name, and the clients `update` names — its structs' and its delete
    /// set's — that are new. An over-estimate when a client is both in the store and pending.
    /// A server's client budget counts this, so a delete set naming unknown clients cannot grow
    /// a document past it (docs/sync.md §2.5). O(clients the update names).
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input.
    public func clientCount(adding update: [UInt8]) throws(UpdateDecodingError) -> Int {
        let decoded = try DecodedUpdate.read(update)
        var added = Set<Int>()
        for client in decoded.clients.map(\.client) + decoded.deleteSet.clients
        where store.slotIndex(of: client) == nil && !pendingDeletes.names(client) {
            added.insert(client)
        }
        return store.clientOfList.count + pendingDeletes.clientCount + added.count
    }
}

extension SharedDocument {
    /// The delete ranges this document keeps pending now (deletes of structs not received).
    /// O(clients with ranges pending).
    public var pendingDeleteRanges: PendingDeleteRanges {
        pendingDeletes.largestClient
    }

    /// The delete ranges this document would keep pending after `update`, an over-estimate
    /// twice over: `ifStructsArrive` counts the update's own structs as integrated (they
    /// continue their client's state), `ifStructsWait` counts none of them. Applying can leave
    /// more than `ifStructsArrive` only when some of the update's structs wait for a missing
    /// dependency, never more than `ifStructsWait`. Ranges a pending range covers already are
    /// not counted; the pending ranges the update makes applicable are (the estimate does not
    /// apply them). `client` is the one with the most among those the update adds ranges to,
    /// so a document already past a budget still takes updates that add nothing. A server's budget refuses an update whose `ifStructsArrive` is past it and
    /// measures the result exactly when only `ifStructsWait` is (docs/sync.md §2.5).
    /// O(structs + ranges × log(pending ranges of their client)).
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input.
    public func pendingDeleteRanges(adding update: [UInt8]) throws(UpdateDecodingError) -> (ifStructsArrive: PendingDeleteRanges, ifStructsWait: PendingDeleteRanges) {
        let decoded = try DecodedUpdate.read(update)
        var arrivedState: [Int: Int] = [:]
        for entry in decoded.clients {
            let state = store.state(of: entry.client)
            guard let first = entry.structs.first, first.id.clock <= state else { continue }
            // Structs continue the client's state up to the first gap the update leaves.
            var end = state
            for wire in entry.structs {
                if wire.kind == .skip { break }
                end = max(end, wire.end)
            }
            arrivedState[entry.client] = end
        }
        var arrive = PendingDeleteRanges(client: nil, ofClient: 0, total: pendingDeletes.rangeCount)
        var wait = arrive
        for client in decoded.deleteSet.clients {
            let state = store.state(of: client)
            let arrived = arrivedState[client] ?? state
            var addedIfArrive = 0, addedIfWait = 0
            for range in decoded.deleteSet.ranges[client] ?? [] {
                let end = range.clock + range.length
                let start = max(range.clock, state)
                guard end > start || (range.length == 0 && range.clock >= state) else { continue }
                if pendingDeletes.covers(client: client, DeleteSet.Range(clock: start, length: end - start)) { continue }
                addedIfWait += 1
                if end > arrived || (range.length == 0 && range.clock >= arrived) { addedIfArrive += 1 }
            }
            let pending = pendingDeletes.rangeCount(of: client)
            arrive.add(client: client, ranges: pending + addedIfArrive, added: addedIfArrive)
            wait.add(client: client, ranges: pending + addedIfWait, added: addedIfWait)
        }
        return (arrive, wait)
    }
}

extension PendingDeleteRanges {
    /// Counts `added` more ranges of `client`, which then holds `ranges`.
    mutating func add(client: Int, ranges: Int, added: Int) {
        guard added > 0 else { return }
        total += added
        self.added += added
        if ranges > ofClient {
            self.client = client
            ofClient = ranges
        }
    }
}
