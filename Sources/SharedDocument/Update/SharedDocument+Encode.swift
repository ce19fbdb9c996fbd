// Writing a document as a v1 update (Yjs 13.5's `writeStateAsUpdate`,
// `writeClientsStructs`, `createDeleteSetFromStructStore`, `encodeStateAsUpdateV2`).

extension SharedDocument {
    func writeStruct(_ item: Item, offset: Int, to writer: inout ByteWriter) {
        if item.isSkip {
            writer.write(10)
            writer.writeVarUint(item.length - offset)
            return
        }
        if item.isGC {
            writer.write(0)
            writer.writeVarUint(item.length - offset)
            return
        }
        let origin = offset > 0 ? ID(client: item.id.client, clock: item.id.clock + offset - 1) : item.origin
        if origin != nil || item.rightOrigin != nil {
            // The common case (an item with a neighbour): no parent is written, so none is built.
            writeItem(to: &writer, origin: origin, rightOrigin: item.rightOrigin, parent: .none, parentSub: item.parentSub, content: item.content, offset: offset)
            return
        }
        var parent = WireStruct.Parent.none
        if origin == nil && item.rightOrigin == nil {
            if let type = item.parent {
                if let parentItem = type.item { parent = .item(parentItem.id) } else { parent = .root(type.rootName ?? "") }
            } else if let parentID = item.parentID {
                parent = .item(parentID)
            }
        }
        writeItem(to: &writer, origin: origin, rightOrigin: item.rightOrigin, parent: parent, parentSub: item.parentSub, content: item.content, offset: offset)
    }

    /// The structs this document has beyond `target` (client → clock), highest client first.
    func writeClientsStructs(to writer: inout ByteWriter, target: [Int: Int]) {
        var selected: [(client: Int, clock: Int)] = []
        for (client, clock) in target where store.state(of: client) > clock { selected.append((client, clock)) }
        for slot in store.lists.indices where target[store.clientOfList[slot]] == nil && !store.lists[slot].isEmpty {
            selected.append((store.clientOfList[slot], 0))
        }
        selected.sort { $0.client > $1.client }
        writer.writeVarUint(selected.count)
        for (client, requested) in selected {
            guard let slot = store.slotIndex(of: client), let first = store.lists[slot].first else { continue }
            let structs = store.lists[slot]
            let clock = max(requested, first.id.clock)
            let start = store.findIndex(slot: slot, clock) ?? 0
            writer.writeVarUint(structs.count - start)
            writer.writeVarUint(client)
            writer.writeVarUint(clock)
            writeStruct(structs[start], offset: clock - structs[start].id.clock, to: &writer)
            for index in (start + 1)..<structs.count { writeStruct(structs[index], offset: 0, to: &writer) }
        }
    }

    /// The delete set the store describes (deleted structs, merged runs), clients in store order.
    func deleteSetFromStore() -> DeleteSet {
        var set = DeleteSet()
        for slot in store.lists.indices {
            let structs = store.lists[slot]
            let client = store.clientOfList[slot]
            var index = 0
            while index < structs.count {
                let current = structs[index]
                if current.deleted {
                    let clock = current.id.clock
                    var length = current.length
                    while index + 1 < structs.count, structs[index + 1].deleted {
                        index += 1
                        length += structs[index].length
                    }
                    set.add(client: client, clock: clock, length: length)
                }
                index += 1
            }
        }
        return set
    }

    /// The whole document, or what a peer with `stateVector` lacks, as one v1 update
    /// (Yjs `encodeStateAsUpdate`), pending structs and deletes included.
    public func encodeStateAsUpdate(stateVector: [UInt8]? = nil) throws(UpdateDecodingError) -> [UInt8] {
        let target = try stateVector.map(Updates.decodeStateVector) ?? [:]
        // About 9 bytes per struct in text updates: one allocation instead of a dozen regrowths.
        var writer = ByteWriter(capacity: 64 + 10 * store.lists.reduce(0) { $0 + $1.count })
        writeClientsStructs(to: &writer, target: target)
        deleteSetFromStore().write(to: &writer)
        var updates = [writer.bytes]
        if let pendingDeleteSet { updates.append(pendingDeleteSet) }
        if let pendingStructs { updates.append(try Updates.diff(pendingStructs.update, stateVector: stateVector ?? [0])) }
        return updates.count > 1 ? try Updates.merge(updates) : updates[0]
    }

    /// This document's state vector, encoded (Yjs `encodeStateVector`).
    public func encodeStateVector() -> [UInt8] { Updates.encodeStateVector(store.stateVector) }
}
