// Applying a v1 update: Yjs 13.5's `readUpdateV2`, `integrateStructs`,
// `readAndApplyDeleteSet`, with the whole update decoded and checked first so that a bad
// update leaves the document untouched.

extension SharedDocument {
    /// Applies a v1 update (Yjs `applyUpdate`). Structs whose dependencies are missing wait
    /// as pending and are applied when a later update brings them.
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input; the document is then unchanged.
    public func applyUpdate(_ update: [UInt8], origin: (any Hashable & Sendable)? = nil) throws(UpdateDecodingError) {
        let decoded = try DecodedUpdate.read(update)
        try validate(decoded)
        transact(origin: origin, local: false) { transaction in
            apply(decoded, transaction)
        }
    }

    /// Checks what would make integration impossible: references on an item's own client
    /// that are not before it.
    func validate(_ update: DecodedUpdate) throws(UpdateDecodingError) {
        for entry in update.clients {
            // Fields read in place: copying each struct out of the array (strings, content)
            // cost more than the checks.
            try entry.structs.withUnsafeBufferPointer { structs throws(UpdateDecodingError) in
                for index in structs.indices where structs[index].kind == .item {
                    let id = structs[index].id
                    if let reference = structs[index].origin, reference.client == id.client, reference.clock >= id.clock {
                        throw UpdateDecodingError(.invalidStructure("struct \(id) refers to \(reference), not before it"), at: 0)
                    }
                    if let reference = structs[index].rightOrigin, reference.client == id.client, reference.clock >= id.clock {
                        throw UpdateDecodingError(.invalidStructure("struct \(id) refers to \(reference), not before it"), at: 0)
                    }
                    guard case .item(let parentID) = structs[index].parent else { continue }
                    if parentID.client == id.client && parentID.clock >= id.clock {
                        throw UpdateDecodingError(.invalidStructure("struct \(id) has parent \(parentID), not before it"), at: 0)
                    }
                    // A parent that is not a shared type (or was collected) makes the child a GC
                    // struct when it is integrated (`resolveDependencies`): not an error, because
                    // whether it is known can depend on the order updates arrive in.
                }
            }
        }
    }

    func apply(_ update: DecodedUpdate, _ transaction: Transaction) {
        var retry = false
        let rest = integrateStructs(update.clients, transaction)
        if var pending = pendingStructs {
            for (client, clock) in pending.missing where clock < store.state(of: client) {
                retry = true
                break
            }
            if let rest {
                for (client, clock) in rest.missing where pending.missing[client].map({ $0 > clock }) ?? true {
                    pending.missing[client] = clock
                }
                pending.update = (try? Updates.merge([pending.update, rest.update])) ?? pending.update
                pendingStructs = pending
            }
        } else {
            pendingStructs = rest
        }
        let unapplied = applyDeleteSet(update.deleteSet, transaction)
        // Pending deletes can apply only where a client's structs arrived: this update's
        // clients (and this replica's own, which local edits advance), below their new state.
        // Nothing else is visited, so the update costs what it brings (PendingDeletes).
        if !pendingDeletes.isEmpty {
            var retried = DeleteSet()
            for client in update.clients.map(\.client) + [clientID] {
                let ranges = pendingDeletes.take(client, below: store.state(of: client))
                if !ranges.isEmpty { retried.append(client: client, ranges: ranges) }
            }
            // Every range taken is below its client's state: all of it applies.
            if !retried.isEmpty { _ = applyDeleteSet(retried, transaction) }
        }
        pendingDeletes.record(unapplied: unapplied)
        if retry, let pending = pendingStructs {
            pendingStructs = nil
            if let decoded = try? DecodedUpdate.read(pending.update), (try? validate(decoded)) != nil {
                apply(decoded, transaction)
            }
        }
    }

    /// Turns wire structs into refs (roots are created as Yjs's `doc.get` does). Fields are
    /// read in place: copying each struct out of its array cost a retain and release per field.
    func makeRef(_ structs: UnsafeBufferPointer<WireStruct>, _ index: Int) -> Item {
        switch structs[index].kind {
        case .gc: return Item.gc(id: structs[index].id, length: structs[index].length)
        case .skip: return Item.skip(id: structs[index].id, length: structs[index].length)
        case .item:
            var parent: SharedType?
            var parentID: ID?
            switch structs[index].parent {
            case .root(let name): parent = try? root(name, kind: .unknown)
            case .item(let id): parentID = id
            case .none: break
            }
            let length = structs[index].length
            return Item(id: structs[index].id, length: length, origin: structs[index].origin, rightOrigin: structs[index].rightOrigin, parent: parent, parentID: parentID,
                        parentSub: structs[index].parentSub, content: structs[index].content ?? .deleted(length))
        }
    }

    /// Yjs's `integrateStructs`: integrates what it can; returns the rest as a v1 update and
    /// the lowest missing clock per client.
    func integrateStructs(_ clients: [WireClientStructs], _ transaction: Transaction) -> (missing: [Int: Int], update: [UInt8])? {
        final class Refs {
            var index = 0
            var items: [Item]
            init(_ items: [Item]) { self.items = items }
        }
        var refsByClient: [Int: Refs] = [:]
        for entry in clients {
            var items: [Item] = []
            items.reserveCapacity(entry.structs.count)
            entry.structs.withUnsafeBufferPointer { structs in
                for index in structs.indices { items.append(makeRef(structs, index)) }
            }
            refsByClient[entry.client] = Refs(items)
        }
        var clientIDs = refsByClient.keys.sorted()
        if clientIDs.isEmpty { return nil }
        var stack: [Item] = []
        func nextTarget() -> Refs? {
            while let last = clientIDs.last {
                if let refs = refsByClient[last], refs.index < refs.items.count { return refs }
                clientIDs.removeLast()
            }
            return nil
        }
        guard var current = nextTarget() else { return nil }
        var rest: [Int: [Item]] = [:]
        var missing: [Int: Int] = [:]
        func updateMissing(_ client: Int, _ clock: Int) {
            if let existing = missing[client], existing <= clock { return }
            missing[client] = clock
        }
        var head = current.items[current.index]
        current.index += 1
        func addStackToRest() {
            for item in stack {
                let client = item.id.client
                if let refs = refsByClient[client] {
                    refs.index -= 1
                    rest[client] = Array(refs.items[refs.index...])
                    refsByClient[client] = nil
                    refs.index = 0
                    refs.items = []
                } else {
                    rest[client] = [item]
                }
                // Yjs also filters the client out of its id list: `nextTarget` skips a client
                // whose refs are gone or used up, without a pass over every client per item
                // (quadratic when thousands of clients wait on one missing struct).
            }
            stack.removeAll()
        }
        var done = false
        while !done {
            if !head.isSkip {
                let client = head.id.client
                let offset = store.state(of: client) - head.id.clock
                if offset < 0 {
                    stack.append(head)
                    updateMissing(client, head.id.clock - 1)
                    addStackToRest()
                } else if let missingClient = head.isGC ? nil : resolveDependencies(head, transaction) {
                    stack.append(head)
                    let refs = refsByClient[missingClient]
                    if let refs, refs.index < refs.items.count {
                        head = refs.items[refs.index]
                        refs.index += 1
                        continue
                    }
                    updateMissing(missingClient, store.state(of: missingClient))
                    addStackToRest()
                } else if offset == 0 || offset < head.length {
                    integrate(head, offset: offset, transaction)
                }
            }
            if let popped = stack.popLast() {
                head = popped
            } else if current.index < current.items.count {
                head = current.items[current.index]
                current.index += 1
            } else if let next = nextTarget() {
                current = next
                head = current.items[current.index]
                current.index += 1
            } else {
                done = true
            }
        }
        guard !rest.isEmpty else { return nil }
        var writer = ByteWriter()
        writer.writeVarUint(rest.count)
        for client in rest.keys.sorted(by: >) {
            guard let items = rest[client], let first = items.first else { continue }
            writer.writeVarUint(items.count)
            writer.writeVarUint(client)
            writer.writeVarUint(first.id.clock)
            for item in items { writeStruct(item, offset: 0, to: &writer) }
        }
        writer.writeVarUint(0)
        return (missing, writer.bytes)
    }

    /// Yjs's `readAndApplyDeleteSet`: deletes what is here, returns the rest.
    func applyDeleteSet(_ deleteSet: DeleteSet, _ transaction: Transaction) -> DeleteSet {
        var unapplied = DeleteSet()
        for client in deleteSet.clients {
            let state = store.state(of: client)
            for range in deleteSet.ranges[client] ?? [] {
                let clock = range.clock
                let end = clock + range.length
                guard clock < state else {
                    unapplied.add(client: client, clock: clock, length: end - clock)
                    continue
                }
                if state < end { unapplied.add(client: client, clock: state, length: end - state) }
                guard let slot = store.slotIndex(of: client), var index = store.findIndex(slot: slot, clock) else { continue }
                var current = store.lists[slot][index]
                if !current.deleted && current.id.clock < clock {
                    let right = split(current, at: clock - current.id.clock, transaction)
                    store.lists[slot].insert(right, at: index + 1)
                    index += 1
                }
                while index < store.lists[slot].count {
                    current = store.lists[slot][index]
                    index += 1
                    guard current.id.clock < end else { break }
                    if !current.deleted {
                        if end < current.id.clock + current.length {
                            let right = split(current, at: end - current.id.clock, transaction)
                            store.lists[slot].insert(right, at: index)
                        }
                        delete(current, transaction)
                    }
                }
            }
        }
        return unapplied
    }
}
