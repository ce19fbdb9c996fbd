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
        // Links are held `unowned(unsafe)` here: the store owns every item, and a strong
        // local costs a retain and a release each (most of an apply's time went to them).
        var detached = false
        if let origin = item.origin {
            if let (slot, index, located) = store.locateUnretained(origin) {
                unowned(unsafe) let found = located.takeUnretainedValue()
                unowned(unsafe) var left = found
                if origin.clock != found.id.clock + found.length - 1 && !found.isGC {
                    let right = split(found, at: origin.clock - found.id.clock + 1, transaction)
                    store.lists[slot].insert(right, at: index + 1)
                    left = found
                }
                item.left = left
                if origin.clock != left.id.clock + left.length - 1 { item.origin = left.lastID }
            } else {
                detached = true
            }
        }
        if let rightOrigin = item.rightOrigin {
            if let (slot, index, located) = store.locateUnretained(rightOrigin) {
                unowned(unsafe) let found = located.takeUnretainedValue()
                unowned(unsafe) var right = found
                if found.id.clock < rightOrigin.clock && found.isItem {
                    let split = split(found, at: rightOrigin.clock - found.id.clock, transaction)
                    store.lists[slot].insert(split, at: index + 1)
                    right = split
                }
                item.right = right
                if right.id != rightOrigin { item.rightOrigin = right.id }
            } else {
                detached = true
            }
        }
        let leftRef = item.leftRef
        let rightRef = item.rightRef
        if detached || (leftRef?._withUnsafeGuaranteedRef { $0.isGC } ?? false) || (rightRef?._withUnsafeGuaranteedRef { $0.isGC } ?? false) {
            item.parent = nil
            item.parentID = nil
        }
        if detached { return nil }
        if item.parent == nil && item.parentID == nil {
            leftRef?._withUnsafeGuaranteedRef { left in
                if left.isItem {
                    item.parent = left.parent
                    item.parentSub = left.parentSub
                }
            }
            rightRef?._withUnsafeGuaranteedRef { right in
                if right.isItem {
                    item.parent = right.parent
                    item.parentSub = right.parentSub
                }
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
        // Links compared and followed unretained (`leftRef`, `rightRef`): a strong local retains.
        let originalLeft = item.leftRef
        let originalRight = item.rightRef
        unowned(unsafe) let parentLink = item.parent
        guard let parentLink, !(originalLeft?._withUnsafeGuaranteedRef { $0.isGC } ?? false) else {
            store.add(Item.gc(id: item.id, length: item.length))
            return
        }
        // The parent is used through a guaranteed reference for the rest: each use of an
        // `unowned(unsafe)` local is a retain and a release.
        Unmanaged.passUnretained(parentLink)._withUnsafeGuaranteedRef { parent in
            let consistent: Bool
            if let originalLeft {
                consistent = originalLeft._withUnsafeGuaranteedRef { $0.rightRef?.toOpaque() } == originalRight?.toOpaque()
            } else {
                consistent = originalRight.map { $0._withUnsafeGuaranteedRef { $0.leftRef == nil } } ?? false
            }
            if !consistent {
                var left = item.left
                var candidate: Item?
                if let left {
                    candidate = left.right
                } else if let key = item.parentSub {
                    candidate = parent.keyStarts[key]
                } else {
                    candidate = parent.start
                }
                var conflicting = ItemScanSet()
                var beforeOrigin = ItemScanSet()
                while let node = candidate, node !== item.right {
                    itemsScanned += 1
                    beforeOrigin.insert(node)
                    conflicting.insert(node)
                    if item.origin == node.origin {
                        if node.id.client < item.id.client {
                            left = node
                            conflicting.removeAll()
                        } else if item.rightOrigin == node.rightOrigin {
                            break
                        }
                    } else if let nodeOrigin = node.origin, beforeOrigin.containsItem(holding: nodeOrigin, in: store) {
                        if !conflicting.containsItem(holding: nodeOrigin, in: store) {
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
            if let leftRef = item.leftRef {
                leftRef._withUnsafeGuaranteedRef { left in
                    item.rightRef = left.rightRef
                    left.rightRef = Unmanaged.passUnretained(item)
                }
            } else {
                var right: Item?
                if let key = item.parentSub {
                    right = parent.keyStarts[key]
                    parent.keyStarts[key] = item
                } else {
                    right = parent.start
                    parent.start = item
                }
                item.right = right
            }
            if let rightRef = item.rightRef {
                rightRef._withUnsafeGuaranteedRef { $0.leftRef = Unmanaged.passUnretained(item) }
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
            if (parent.item?.deleted ?? false) || (item.parentSub != nil && item.rightRef != nil) {
                delete(item, transaction)
            }
        }
    }
}
