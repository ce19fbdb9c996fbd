// Writing a document as a v1 update (Yjs 13.5's `writeStateAsUpdate`,
// `writeClientsStructs`, `createDeleteSetFromStructStore`, `encodeStateAsUpdateV2`).

extension SharedDocument {
    func writeStruct(_ item: Item, offset: Int, to writer: inout ByteWriter) {
        let flags = item.flags
        if flags & (Item.gcFlag | Item.skipFlag) != 0 {
            writer.write(flags & Item.skipFlag != 0 ? 10 : 0)
            writer.writeVarUint(item.length - offset)
            return
        }
        let origin = offset > 0 ? ID(client: item.id.client, clock: item.id.clock + offset - 1) : item.origin
        let rightOrigin = item.rightOrigin
        if offset == 0, origin != nil || rightOrigin != nil {
            // The common struct of a text: its neighbours and its characters. Room is reserved
            // first, so between reading the characters and the last byte only inlined stores
            // run, and the compiler need not retain the characters (a retain and release per
            // struct, on a different cache line each, were a third of an encode).
            var bits: UInt8 = 0
            if origin != nil { bits |= 0x80 }
            if rightOrigin != nil { bits |= 0x40 }
            if item.parentSub != nil { bits |= 0x20 }
            let info = 4 | bits
            // ASCII text is held as its bytes, short text inside the item itself (`TextUnits`):
            // no second allocation to reach for most structs.
            if case .string(let units) = item.content,
               units.withASCII({ ascii -> Bool in
                   writer.reserve(51 + ascii.count)
                   writer.storeASCIITextStruct(info: info, origin: origin, rightOrigin: rightOrigin, ascii: ascii)
                   return true
               }) != nil {
                return
            }
            // A deleted item (most structs of a text edited for long): its neighbours and length,
            // without the general path's content copy and parent switch.
            if case .deleted(let count) = item.content {
                writer.reserve(51)
                writer.storeDeletedStruct(info: 1 | bits, origin: origin, rightOrigin: rightOrigin, length: count)
                return
            }
        }
        // Only an item with no neighbour names its parent: no parent is built otherwise.
        let parent = origin == nil && rightOrigin == nil ? item.parentOnWire : .none
        writeItem(to: &writer, origin: origin, rightOrigin: rightOrigin, parent: parent, parentSub: item.parentSub, content: item.content, offset: offset)
    }

    /// `writeStruct` for every struct of `structs` from `start`, the first from `offset`.
    /// Items are passed unretained: the store owns them for the whole walk, and a retain and
    /// release per struct was a large share of an encode.
    ///
    /// With `deleted`, the walk also gathers the list's deleted ranges (adjacent deleted
    /// structs merged, as ``deleteSetFromStore(walked:)`` does): right after editing, items
    /// are out of cache, and a second walk over them for the delete set was a quarter of an
    /// encode.
    func writeStructs(_ structs: UnsafeBufferPointer<Item>, from start: Int, offset: Int, to writer: inout ByteWriter, deleted: inout [DeleteSet.Range]?) {
        var index = start
        var itemOffset = offset
        let collect = deleted != nil
        var ranges = deleted ?? []
        defer { if collect { deleted = ranges } }
        while index < structs.count {
            Unmanaged.passUnretained(structs[index])._withUnsafeGuaranteedRef { item in
                if collect, item.flags & Item.deletedFlag != 0 {
                    let clock = item.id.clock
                    let length = item.length
                    if let last = ranges.indices.last, ranges[last].clock + ranges[last].length == clock {
                        ranges[last].length += length
                    } else {
                        ranges.append(DeleteSet.Range(clock: clock, length: length))
                    }
                }
                writeStruct(item, offset: itemOffset, to: &writer)
            }
            itemOffset = 0
            index += 1
        }
    }

    /// The structs this document has beyond `target` (client → clock), highest client first.
    /// Returns, per store slot, the deleted ranges of each list it walked whole.
    @discardableResult
    func writeClientsStructs(to writer: inout ByteWriter, target: [Int: Int]) -> [[DeleteSet.Range]?] {
        writeClientsStructs(to: &writer, selected: clientsToWrite(target: target), gatherDeleted: true)
    }

    /// The structs of `selected` clients from their clocks, highest client first. With
    /// `gatherDeleted`, returns per store slot the deleted ranges of each list it walked whole;
    /// otherwise nothing (and costs nothing per client of the document).
    @discardableResult
    func writeClientsStructs(to writer: inout ByteWriter, selected: [(client: Int, clock: Int)], gatherDeleted: Bool) -> [[DeleteSet.Range]?] {
        var selected = selected
        selected.sort { $0.client > $1.client }
        writer.writeVarUint(selected.count)
        var walked = [[DeleteSet.Range]?](repeating: nil, count: gatherDeleted ? store.lists.count : 0)
        for (client, requested) in selected {
            guard let slot = store.slotIndex(of: client), let first = store.lists[slot].first else { continue }
            let clock = max(requested, first.id.clock)
            store.lists[slot].withUnsafeBufferPointer { structs in
                let start = StructStore.findIndex(structs, clock) ?? 0
                writer.writeVarUint(structs.count - start)
                writer.writeVarUint(client)
                writer.writeVarUint(clock)
                let offset = clock - structs[start].id.clock
                var deleted: [DeleteSet.Range]? = gatherDeleted && start == 0 && offset == 0 ? [] : nil
                writeStructs(structs, from: start, offset: offset, to: &writer, deleted: &deleted)
                if gatherDeleted { walked[slot] = deleted }
            }
        }
        return walked
    }

    /// The clients with structs beyond `target` and the clock to write each from (the
    /// target's, 0 for a client it lacks), highest client first.
    func clientsToWrite(target: [Int: Int]) -> [(client: Int, clock: Int)] {
        var selected: [(client: Int, clock: Int)] = []
        for (client, clock) in target where store.state(of: client) > clock { selected.append((client, clock)) }
        for slot in store.lists.indices where target[store.clientOfList[slot]] == nil && !store.lists[slot].isEmpty {
            selected.append((store.clientOfList[slot], 0))
        }
        selected.sort { $0.client > $1.client }
        return selected
    }

    /// The delete set the store describes (deleted structs, merged runs), clients in store order;
    /// the ranges of lists in `walked` (from ``writeClientsStructs(to:target:)``) are taken as they are.
    func deleteSetFromStore(walked: [[DeleteSet.Range]?] = []) -> DeleteSet {
        var set = DeleteSet()
        for slot in store.lists.indices {
            if slot < walked.count, let ranges = walked[slot] {
                if !ranges.isEmpty { set.append(client: store.clientOfList[slot], ranges: ranges) }
                continue
            }
            var ranges: [DeleteSet.Range] = []
            store.lists[slot].withUnsafeBufferPointer { structs in
                // Flags read through unretained references, as in `writeStructs`.
                func flags(_ index: Int) -> UInt8 { Unmanaged.passUnretained(structs[index])._withUnsafeGuaranteedRef { $0.flags } }
                var index = 0
                while index < structs.count {
                    if flags(index) & Item.deletedFlag != 0 {
                        let (clock, first) = Unmanaged.passUnretained(structs[index])._withUnsafeGuaranteedRef { ($0.id.clock, $0.length) }
                        var length = first
                        while index + 1 < structs.count, flags(index + 1) & Item.deletedFlag != 0 {
                            index += 1
                            length += Unmanaged.passUnretained(structs[index])._withUnsafeGuaranteedRef { $0.length }
                        }
                        ranges.append(DeleteSet.Range(clock: clock, length: length))
                    }
                    index += 1
                }
            }
            if !ranges.isEmpty { set.append(client: store.clientOfList[slot], ranges: ranges) }
        }
        return set
    }

    /// The whole document, or what a peer with `stateVector` lacks, as one v1 update
    /// (Yjs `encodeStateAsUpdate`), pending structs and deletes included.
    public func encodeStateAsUpdate(stateVector: [UInt8]? = nil) throws(UpdateDecodingError) -> [UInt8] {
        let target = try stateVector.map(Updates.decodeStateVector) ?? [:]
        // About 9 bytes per struct in text updates: written straight into the array returned,
        // one allocation and no copy (a copy, another allocation and their page faults were
        // a fifth of an encode right after editing). Larger updates move to a buffer of the
        // writer's own and are copied out.
        var spilled: [UInt8]?
        let written = [UInt8](unsafeUninitializedCapacity: 64 + 10 * store.lists.reduce(0) { $0 + $1.count }) { buffer, initialized in
            initialized = 0
            guard var writer = ByteWriter(borrowing: buffer) else { return }
            let walked = writeClientsStructs(to: &writer, target: target)
            deleteSetFromStore(walked: walked).write(to: &writer)
            if writer.isInBorrowedBuffer { initialized = writer.count } else { spilled = writer.bytes }
        }
        var updates = [spilled ?? written]
        if !pendingDeletes.isEmpty { updates.append(pendingDeletes.update) }
        if let pendingStructs { updates.append(try Updates.diff(pendingStructs.update, stateVector: stateVector ?? [0])) }
        return updates.count > 1 ? try Updates.merge(updates) : updates[0]
    }

    /// This document's state vector, encoded (Yjs `encodeStateVector`).
    public func encodeStateVector() -> [UInt8] { Updates.encodeStateVector(store.stateVector) }
}

extension Item {
    /// The parent as an update names it: the id of the item holding the parent type, a root's
    /// name, or the id read from an update before integration.
    var parentOnWire: WireStruct.Parent {
        if let type = parent {
            if let parentItem = type.item { return .item(parentItem.id) }
            return .root(type.rootName ?? "")
        }
        if let parentID { return .item(parentID) }
        return .none
    }
}
