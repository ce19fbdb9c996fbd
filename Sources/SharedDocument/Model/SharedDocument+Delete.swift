// Deletion, garbage collection and merging of structs at the end of a transaction
// (Yjs 13.5's `Item.delete`, `Item.gc`, `tryGcDeleteSet`, `tryMergeDeleteSet`,
// `tryToMergeWithLeft`, `cleanupTransactions`). Nested types are walked with an explicit
// work list: an update may nest types deeper than the stack allows.

extension SharedDocument {
    func delete(_ item: Item, _ transaction: Transaction) {
        var work = [item]
        while let current = work.popLast() {
            guard !current.deleted, let parent = current.parent else { continue }
            if current.countable && current.parentSub == nil { parent.length -= current.length }
            current.markDeleted()
            transaction.deleteSet.add(client: current.id.client, clock: current.id.clock, length: current.length)
            transaction.addChanged(parent, key: current.parentSub)
            if case .type(let type) = current.content {
                var node = type.start
                while let child = node {
                    if !child.deleted { work.append(child) } else { transaction.mergeStructs.append(child) }
                    node = child.right
                }
                for key in type.keyOrder {
                    guard let child = type.map[key] else { continue }
                    if !child.deleted { work.append(child) } else { transaction.mergeStructs.append(child) }
                }
            }
        }
    }

    /// Drops the content of a deleted item; with `parentGCd` the item becomes a GC struct.
    func collect(_ item: Item, parentGCd: Bool) {
        // The common case, deleted text or values: no work list to allocate.
        if !parentGCd, item.isItem, item.deleted {
            if case .type = item.content {} else {
                item.content = .deleted(item.length)
                return
            }
        }
        var work: [(Item, Bool)] = [(item, parentGCd)]
        while let (current, replace) = work.popLast() {
            guard current.isItem, current.deleted else { continue }
            if case .type(let type) = current.content {
                var node = type.start
                while let child = node {
                    work.append((child, true))
                    node = child.right
                }
                for key in type.keyOrder {
                    var node = type.map[key]
                    while let child = node {
                        work.append((child, true))
                        node = child.left
                    }
                }
                type.start = nil
                type.map = [:]
                type.keyStarts = [:]
                type.keyOrder = []
                type.markers = type.markers == nil ? nil : []
            }
            if replace {
                guard let slot = store.slotIndex(of: current.id.client), let index = store.findIndex(slot: slot, current.id.clock) else { continue }
                store.lists[slot][index] = Item.gc(id: current.id, length: current.length)
            } else {
                current.content = .deleted(current.length)
            }
        }
    }

    /// Merges the struct at `position` into its left neighbour when Yjs would.
    func mergeWithLeft(slot: Int, position: Int) {
        // Most neighbours do not merge (every struct of an applied update is tried): tell
        // that through unretained references first, without the two retains and releases
        // the strong reads below cost.
        let mergeable = store.lists[slot].withUnsafeBufferPointer { structs in
            Unmanaged.passUnretained(structs[position - 1])._withUnsafeGuaranteedRef { left in
                Unmanaged.passUnretained(structs[position])._withUnsafeGuaranteedRef { right in
                    let kind = Item.deletedFlag | Item.gcFlag | Item.skipFlag
                    guard left.flags & kind == right.flags & kind else { return false }
                    if left.flags & Item.gcFlag != 0 { return true }
                    return right.origin == left.lastID && left.rightRef?.toOpaque() == Unmanaged.passUnretained(right).toOpaque()
                }
            }
        }
        guard mergeable else { return }
        let left = store.lists[slot][position - 1]
        let right = store.lists[slot][position]
        guard left.deleted == right.deleted, left.isGC == right.isGC, left.isSkip == right.isSkip else { return }
        if left.isGC {
            left.length += right.length
            left.content = .deleted(left.length)
        } else {
            guard right.origin == left.lastID, left.right === right, left.rightOrigin == right.rightOrigin,
                  left.id.client == right.id.client, left.id.clock + left.length == right.id.clock,
                  left.content.ref == right.content.ref, left.content.merge(right.content) else { return }
            if let parent = left.parent, var markers = parent.markers, !markers.isEmpty {
                parent.markers = nil
                for index in markers.indices where markers[index].item === right {
                    markers[index].item = left
                    if left.visibleCountable { markers[index].index -= left.length }
                }
                parent.markers = markers
            }
            if right.keep { left.flags |= Item.keepFlag }
            left.right = right.right
            if let next = left.right { next.left = left }
            left.length += right.length
        }
        store.lists[slot].remove(at: position)
        if right.isItem, let key = right.parentSub, let parent = right.parent, parent.map[key] === right {
            parent.map[key] = left
        }
    }

    func cleanup(_ transaction: Transaction) {
        transaction.deleteSet.sortAndMerge()
        emitChanges(transaction)
        let deleteSet = transaction.deleteSet
        if gc {
            for client in deleteSet.clients {
                guard let slot = store.slotIndex(of: client) else { continue }
                for range in (deleteSet.ranges[client] ?? []).reversed() {
                    let end = range.clock + range.length
                    guard var index = store.findIndex(slot: slot, range.clock) else { continue }
                    while index < store.lists[slot].count {
                        let current = store.lists[slot][index]
                        if current.id.clock >= end { break }
                        if current.isItem && current.deleted && !current.keep { collect(current, parentGCd: false) }
                        index += 1
                    }
                }
            }
        }
        for client in deleteSet.clients {
            guard let slot = store.slotIndex(of: client) else { continue }
            let before = transaction.stateBefore(client) ?? Int.max
            for range in (deleteSet.ranges[client] ?? []).reversed() {
                // A range among this transaction's new structs is left to the next loop, which
                // tries every new struct anyway (merging gives the same structs in any order):
                // an applied update's deleted structs were each tried twice.
                if range.clock >= before { continue }
                guard let last = store.findIndex(slot: slot, range.clock + range.length - 1) else { continue }
                var index = min(store.lists[slot].count - 1, last + 1)
                while index > 0 && store.lists[slot][index].id.clock >= range.clock {
                    mergeWithLeft(slot: slot, position: index)
                    index -= 1
                }
            }
        }
        // Only the lists the transaction added to: a pass over every client cost documents of
        // many clients more than the update.
        for (client, before) in transaction.added {
            guard let slot = store.slotIndex(of: client), let last = store.lists[slot].last, last.id.clock + last.length != before else { continue }
            let first = max(store.findIndex(slot: slot, before) ?? 1, 1)
            var index = store.lists[slot].count - 1
            while index >= first {
                mergeWithLeft(slot: slot, position: index)
                index -= 1
            }
        }
        for item in transaction.mergeStructs {
            guard let slot = store.slotIndex(of: item.id.client), let position = store.findIndex(slot: slot, item.id.clock) else { continue }
            if position + 1 < store.lists[slot].count { mergeWithLeft(slot: slot, position: position + 1) }
            if position > 0 { mergeWithLeft(slot: slot, position: position) }
        }
        emitUpdate(transaction)
    }
}
