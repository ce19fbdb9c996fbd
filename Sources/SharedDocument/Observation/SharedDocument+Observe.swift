// Deep observation: after each transaction, the changed types' changes as path operations
// (what a JSON mirror applies to follow the document).

extension SharedDocument {
    /// Calls `callback` after every transaction that changed something. Returns a token for
    /// ``unobserveDeep(_:)``. Callbacks run synchronously at the end of the transaction.
    @discardableResult
    public func observeDeep(_ callback: @escaping (ChangeSet) -> Void) -> Int {
        nextObserverID += 1
        deepObservers.append((nextObserverID, callback))
        return nextObserverID
    }

    public func unobserveDeep(_ token: Int) {
        deepObservers.removeAll { $0.id == token }
    }

    func emitChanges(_ transaction: Transaction) {
        if !transaction.local {
            // Yjs drops an array's or text's search markers on remote changes (`_callObserver`).
            for identifier in transaction.changedOrder {
                guard let change = transaction.changed[identifier], !(change.type.item?.deleted ?? false) else { continue }
                if change.type.markers != nil { change.type.markers = [] }
            }
        }
        guard !deepObservers.isEmpty, !transaction.changedOrder.isEmpty else { return }
        var operations: [(depth: Int, operation: PathOperation)] = []
        for identifier in transaction.changedOrder {
            guard let change = transaction.changed[identifier], !(change.type.item?.deleted ?? false), let path = path(of: change.type) else { continue }
            let type = change.type
            for key in change.keys {
                if let item = type.map[key], !item.deleted {
                    let value = (try? SharedType.lastValue(of: item, depth: path.count + 1)) ?? .null
                    operations.append((path.count, .set(path: path + [.key(key)], value: value)))
                } else {
                    operations.append((path.count, .delete(path: path + [.key(key)])))
                }
            }
            guard change.list else { continue }
            switch type.kind {
            case .text, .xmlText:
                operations.append((path.count, .set(path: path, value: .string(type.textString()))))
            default:
                for operation in splices(of: type, path: path, transaction) { operations.append((path.count, operation)) }
            }
        }
        guard !operations.isEmpty else { return }
        let ordered = operations.enumerated().sorted { a, b in
            a.element.depth != b.element.depth ? a.element.depth < b.element.depth : a.offset < b.offset
        }.map(\.element.operation)
        let changes = ChangeSet(operations: ordered, origin: transaction.origin, local: transaction.local)
        for observer in deepObservers { observer.callback(changes) }
    }

    /// The path from the document's root to `type`, nil for a root of unknown kind.
    ///
    /// Nil past ``UpdateDecodingError/maximumNesting`` levels too: changes that deep are not
    /// reported (a path per change would make building a deep chain quadratic, and toJSON
    /// refuses values that deep anyway).
    func path(of type: SharedType) -> [PathStep]? {
        guard type.depth <= UpdateDecodingError.maximumNesting else { return nil }
        var steps: [PathStep] = []
        var current = type
        while let item = current.item {
            guard let parent = item.parent else { return nil }
            if let key = item.parentSub {
                steps.append(.key(key))
            } else {
                var index = 0
                var node = item.left
                while let left = node {
                    if left.visibleCountable { index += left.length }
                    node = left.left
                }
                steps.append(.index(index))
            }
            current = parent
            if steps.count > UpdateDecodingError.maximumNesting { return nil }
        }
        guard let name = current.rootName, current.kind != .unknown else { return nil }
        steps.append(.key(name))
        return steps.reversed()
    }

    /// The list changes of this transaction as splices over the new array.
    func splices(of type: SharedType, path: [PathStep], _ transaction: Transaction) -> [PathOperation] {
        var result: [PathOperation] = []
        var index = 0
        var deleteCount = 0
        var items: [YValue] = []
        func flush() {
            guard deleteCount > 0 || !items.isEmpty else { return }
            result.append(.splice(path: path, index: index, deleteCount: deleteCount, items: items))
            index += items.count
            deleteCount = 0
            items = []
        }
        var node = type.start
        while let item = node {
            node = item.right
            let new = transaction.isNew(item.id)
            if item.deleted {
                if !new && item.countable == false, case .deleted = item.content {
                    // Content already collected in an earlier transaction: not part of this change.
                    if !transaction.deleteSet.contains(item.id) { continue }
                }
                if !new && transaction.deleteSet.contains(item.id) && wasCountable(item) { deleteCount += item.length }
            } else if item.countable {
                if new {
                    for offset in 0..<item.length { items.append((try? SharedType.value(of: item, at: offset, depth: path.count + 1)) ?? .null) }
                } else {
                    flush()
                    index += item.length
                }
            }
        }
        flush()
        return result
    }

    /// Whether a deleted item counted in its list before (GC runs after observers, so its
    /// content is still there unless it arrived already deleted).
    private func wasCountable(_ item: Item) -> Bool {
        if case .deleted = item.content { return false }
        return item.countable
    }
}
