// Whether an update brings anything: a sync server stores and broadcasts only updates that do
// (docs/sync.md §2.1), and refuses a read-only client's update only when it does (§2.3).

extension SharedDocument {
    /// Whether applying `update` would change this document: a struct past what the document
    /// holds (applied or kept pending), or a deletion of something not yet deleted here (or not
    /// yet here). Reads the update and the store; changes nothing. O(structs + deleted structs
    /// covered by the update's delete set).
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
                // A deletion of structs not here yet is kept pending: that is a change.
                if end > state { return true }
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
