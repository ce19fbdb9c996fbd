// Integration of items into their parent's list: Yjs 13.5's `Item.getMissing`,
// `Item.integrate`, `splitItem`, `getItemCleanStart` / `getItemCleanEnd`.

extension SharedDocument {
    /// Splits `item` at `diff`, returning the new right part (already in the list, not yet
    /// in the store: the caller inserts it after `item`).
    func split(_ item: Item, at diff: Int, _ transaction: Transaction) -> Item {
        let rightContent = item.content.splice(at: diff)
        let right = Item(
            id: ID(client: item.id.client, clock: item.id.clock + diff), length: item.length - diff,
            origin: ID(client: item.id.client, clock: item.id.clock + diff - 1), rightOrigin: item.rightOrigin,
            parent: item.parent, parentID: nil, parentSub: item.parentSub, content: rightContent)
        right.flags = item.flags & (Item.deletedFlag | Item.keepFlag)
        right.left = item
        right.right = item.right
        item.right = right
        if let next = right.right { next.left = right }
        transaction.mergeStructs.append(right)
        if let key = right.parentSub, right.right == nil, let parent = right.parent { parent.setMapEntry(key, right) }
        item.length = diff
        return right
    }

    /// The struct that starts at `id`, splitting an item if needed.
    @discardableResult
    func itemCleanStart(_ id: ID, _ transaction: Transaction) -> Item? {
        guard let (slot, index, found) = store.locate(id) else { return nil }
        if found.id.clock < id.clock && found.isItem {
            let right = split(found, at: id.clock - found.id.clock, transaction)
            store.lists[slot].insert(right, at: index + 1)
            return right
        }
        return found
    }

    /// The struct that ends at `id`, splitting an item if needed.
    func itemCleanEnd(_ id: ID, _ transaction: Transaction) -> Item? {
        guard let (slot, index, found) = store.locate(id) else { return nil }
        if id.clock != found.id.clock + found.length - 1 && !found.isGC {
            let right = split(found, at: id.clock - found.id.clock + 1, transaction)
            store.lists[slot].insert(right, at: index + 1)
        }
        return found
    }

    /// The client whose struct `item` still needs, or nil once all are here — then its
    /// left, right and parent are resolved (Yjs's `getMissing`).
    func resolveDependencies(_ item: Item, _ transaction: Transaction) -> Int? {
        if let origin = item.origin, origin.client != item.id.client, origin.clock >= store.state(of: origin.client) { return origin.client }
        if let rightOrigin = item.rightOrigin, rightOrigin.client != item.id.client, rightOrigin.clock >= store.state(of: rightOrigin.client) { return rightOrigin.client }
        if let parentID = item.parentID, parentID.client != item.id.client, parentID.clock >= store.state(of: parentID.client) { return parentID.client }
        var detached = false
        if let origin = item.origin {
            if let left = itemCleanEnd(origin, transaction) {
                item.left = left
                item.origin = left.lastID
            } else {
                detached = true
            }
        }
        if let rightOrigin = item.rightOrigin {
            if let right = itemCleanStart(rightOrigin, transaction) {
                item.right = right
                item.rightOrigin = right.id
            } else {
                detached = true
            }
        }
        if detached || (item.left?.isGC ?? false) || (item.right?.isGC ?? false) {
            item.parent = nil
            item.parentID = nil
        }
        if detached { return nil }
        if item.parent == nil && item.parentID == nil {
            if let left = item.left, left.isItem {
                item.parent = left.parent
                item.parentSub = left.parentSub
            }
            if let right = item.right, right.isItem {
                item.parent = right.parent
                item.parentSub = right.parentSub
            }
        } else if let parentID = item.parentID {
            item.parentID = nil
            if let parentItem = store.find(parentID), !parentItem.isGC, case .type(let type) = parentItem.content {
                item.parent = type
            } else {
                // A GC'd parent (or, from a malformed peer, one that is not a type): no parent, so GC.
                item.parent = nil
            }
        }
        return nil
    }

    /// Yjs's `Item.integrate` (YATA), or the GC struct that replaces an item without parent.
    func integrate(_ item: Item, offset: Int, _ transaction: Transaction) {
        if item.isGC {
            if offset > 0 {
                item.id.clock += offset
                item.length -= offset
                item.content = .deleted(item.length)
            }
            store.add(item)
            return
        }
        if offset > 0 {
            item.id.clock += offset
            item.left = itemCleanEnd(ID(client: item.id.client, clock: item.id.clock - 1), transaction)
            item.origin = item.left?.lastID
            item.content = item.content.splice(at: offset)
            item.length -= offset
        }
        // The links read once: each read of an `unowned(unsafe)` link into a local retains.
        let originalLeft = item.left
        let originalRight = item.right
        guard let parent = item.parent, !(originalLeft?.isGC ?? false) else {
            store.add(Item.gc(id: item.id, length: item.length))
            return
        }
        let consistent: Bool
        if let originalLeft { consistent = originalLeft.right === originalRight } else { consistent = originalRight.map { $0.left == nil } ?? false }
        if !consistent {
            var left = item.left
            var candidate: Item?
            if let left {
                candidate = left.right
            } else if let key = item.parentSub {
                candidate = parent.map[key]
                while let node = candidate, let previous = node.left { candidate = previous }
            } else {
                candidate = parent.start
            }
            var conflicting = Set<ObjectIdentifier>()
            var beforeOrigin = Set<ObjectIdentifier>()
            while let node = candidate, node !== item.right {
                beforeOrigin.insert(ObjectIdentifier(node))
                conflicting.insert(ObjectIdentifier(node))
                if item.origin == node.origin {
                    if node.id.client < item.id.client {
                        left = node
                        conflicting.removeAll()
                    } else if item.rightOrigin == node.rightOrigin {
                        break
                    }
                } else if let nodeOrigin = node.origin, let originItem = store.find(nodeOrigin), beforeOrigin.contains(ObjectIdentifier(originItem)) {
                    if !conflicting.contains(ObjectIdentifier(originItem)) {
                        left = node
                        conflicting.removeAll()
                    }
                } else {
                    break
                }
                candidate = node.right
            }
            item.left = left
        }
        if let left = item.left {
            item.right = left.right
            left.right = item
        } else {
            var right: Item?
            if let key = item.parentSub {
                right = parent.map[key]
                while let node = right, let previous = node.left { right = previous }
            } else {
                right = parent.start
                parent.start = item
            }
            item.right = right
        }
        if let right = item.right {
            right.left = item
        } else if let key = item.parentSub {
            parent.setMapEntry(key, item)
            if let left = item.left { delete(left, transaction) }
        }
        if item.parentSub == nil && item.visibleCountable { parent.length += item.length }
        store.add(item)
        switch item.content {
        case .type(let type):
            type.item = item
            type.document = self
            type.depth = parent.depth + 1
        case .deleted:
            transaction.deleteSet.add(client: item.id.client, clock: item.id.clock, length: item.length)
            item.markDeleted()
        default:
            break
        }
        transaction.addChanged(parent, key: item.parentSub)
        if (parent.item?.deleted ?? false) || (item.parentSub != nil && item.right != nil) {
            delete(item, transaction)
        }
    }
}
