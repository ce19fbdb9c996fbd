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
