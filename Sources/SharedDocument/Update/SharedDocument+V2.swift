// Writing and applying v2 updates (Yjs `encodeStateAsUpdateV2`, `applyUpdateV2`).

extension SharedDocument {
    /// The whole document, or what a peer with `stateVector` lacks, as one v2 update
    /// (Yjs `encodeStateAsUpdateV2`), pending structs and deletes included. State vectors are
    /// the same in both formats.
    ///
    /// The same structs in the same order as ``encodeStateAsUpdate(stateVector:)``, written
    /// from the store: a map entry with a neighbour keeps its key bit, which an update read
    /// back (and so a v1 update converted) does not carry.
    public func encodeStateAsUpdateV2(stateVector: [UInt8]? = nil) throws(UpdateDecodingError) -> [UInt8] {
        let target = try stateVector.map(Updates.decodeStateVector) ?? [:]
        var encoder = UpdateEncoderV2()
        for (client, requested) in clientsToWrite(target: target) {
            guard let slot = store.slotIndex(of: client), let first = store.lists[slot].first else { continue }
            let clock = max(requested, first.id.clock)
            let structs = store.lists[slot]
            let start = structs.withUnsafeBufferPointer { StructStore.findIndex($0, clock) } ?? 0
            for index in start..<structs.count {
                try encoder.write(structs[index], offset: index == start ? clock - structs[start].id.clock : 0)
            }
        }
        var updates = [try encoder.finish(deleteSet: deleteSetFromStore())]
        // Pending content merged in as Yjs does (`mergeUpdatesV2`).
        if !pendingDeletes.isEmpty { updates.append(try Updates.convertV1ToV2(pendingDeletes.update)) }
        if let pendingStructs { updates.append(try Updates.convertV1ToV2(try Updates.diff(pendingStructs.update, stateVector: stateVector ?? [0]))) }
        return updates.count > 1 ? try Updates.mergeV2(updates) : updates[0]
    }

    /// Applies a v2 update (Yjs `applyUpdateV2`), as ``applyUpdate(_:origin:)`` applies v1:
    /// structs whose dependencies are missing wait as pending.
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input; the document is then unchanged.
    public func applyUpdateV2(_ update: [UInt8], origin: (any Hashable & Sendable)? = nil) throws(UpdateDecodingError) {
        let decoded = try UpdateDecoderV2.read(update)
        try validate(decoded)
        transact(origin: origin, local: false) { transaction in
            apply(decoded, transaction)
        }
    }
}
