import JSEngine

/// What it takes to put a value back as it was before one operation: the parts the
/// operation replaces or removes, never a copy of the state (docs/PROTOCOL.md A.6: a
/// message applies whole or not at all).
enum MutationUndo {
    case root(JSONValue)
    /// Put `value` back under `key`; it was at `position` (re-inserted there if the key is gone).
    case objectValue(parent: [PathStep], key: String, value: JSONValue, position: Int)
    /// The key did not exist: remove it.
    case objectRemove(parent: [PathStep], key: String)
    case arrayElement(parent: [PathStep], index: Int, value: JSONValue)
    /// The array had `count` elements and these were its tail from `count - removedTail.count`.
    case arrayLength(parent: [PathStep], count: Int, removedTail: [JSONValue])
    case splice(array: [PathStep], start: Int, insertedCount: Int, removed: [JSONValue])
}

extension JSONValue {
    /// Applies `op` in place, first appending to `undo` what puts the value back.
    ///
    /// Costs what `apply(_:)` costs plus O(path depth) to read the parts the operation will
    /// replace (and O(removed elements) for splices and shorter lengths). On a throw nothing
    /// was applied and nothing is appended.
    mutating func apply(_ op: MutationOp, recordingUndoIn undo: inout [MutationUndo]) throws(MutationOpError) {
        let step = undoStep(for: op)
        try apply(op)
        if let step { undo.append(step) }
    }

    /// Reverts the operations `undo` recorded, newest first.
    mutating func revert(_ undo: [MutationUndo]) {
        for step in undo.reversed() {
            switch step {
            case .root(let value):
                self = value
            case .objectValue(let parent, let key, let value, let position):
                try? modifyContainer(at: parent[...], fullPath: parent) { container throws(MutationOpError) in
                    guard var members = container.takeObject() else { return }
                    if members.index(forKey: JSONKey(key)) != nil { members[key] = value }
                    else { members.updateValue(value, forKey: JSONKey(key), insertingAt: Swift.min(position, members.count)) }
                    container = .object(members)
                }
            case .objectRemove(let parent, let key):
                try? modifyContainer(at: parent[...], fullPath: parent) { container throws(MutationOpError) in
                    guard var members = container.takeObject() else { return }
                    members.removeValue(forKey: JSONKey(key))
                    container = .object(members)
                }
            case .arrayElement(let parent, let index, let value):
                try? modifyContainer(at: parent[...], fullPath: parent) { container throws(MutationOpError) in
                    guard var elements = container.takeArray() else { return }
                    if elements.indices.contains(index) { elements[index] = value }
                    container = .array(elements)
                }
            case .arrayLength(let parent, let count, let removedTail):
                try? modifyContainer(at: parent[...], fullPath: parent) { container throws(MutationOpError) in
                    guard var elements = container.takeArray() else { return }
                    let kept = count - removedTail.count
                    if elements.count > kept { elements.removeSubrange(kept...) }
                    elements.append(contentsOf: removedTail)
                    container = .array(elements)
                }
            case .splice(let path, let start, let insertedCount, let removed):
                try? modifyContainer(at: path[...], fullPath: path) { container throws(MutationOpError) in
                    guard var elements = container.takeArray(), start <= elements.count else { return }
                    elements.replaceSubrange(start..<Swift.min(elements.count, start + insertedCount), with: removed)
                    container = .array(elements)
                }
            }
        }
    }

    /// The undo step for `op` against the current value; `nil` when `op` will fail anyway.
    /// Reads through `peek`, which returns only what it extracted, so no reference to a
    /// container outlives this call (a live reference would make `apply` copy it).
    private func undoStep(for op: MutationOp) -> MutationUndo? {
        switch op {
        case .set(let path, _):
            guard let last = path.last else { return .root(self) }
            let parent = Array(path.dropLast())
            return peek(at: parent[...]) { container in
                switch container {
                case .object(let members):
                    guard case .key(let key) = last else { return nil }
                    if let position = members.index(forKey: JSONKey(key)) {
                        return .objectValue(parent: parent, key: key, value: members.values[position], position: position)
                    }
                    return .objectRemove(parent: parent, key: key)
                case .array(let elements):
                    if case .key("length") = last {
                        return .arrayLength(parent: parent, count: elements.count, removedTail: [])
                            .withTail(of: elements, op: op)
                    }
                    guard let index = last.arrayIndex else { return nil }
                    if index < elements.count { return .arrayElement(parent: parent, index: index, value: elements[index]) }
                    return .arrayLength(parent: parent, count: elements.count, removedTail: [])
                default: return nil
                }
            }
        case .delete(let path):
            guard let last = path.last else { return nil }
            let parent = Array(path.dropLast())
            return peek(at: parent[...]) { container in
                switch container {
                case .object(let members):
                    guard case .key(let key) = last, let position = members.index(forKey: JSONKey(key)) else { return nil }
                    return .objectValue(parent: parent, key: key, value: members.values[position], position: position)
                case .array(let elements):
                    guard let index = last.arrayIndex, elements.indices.contains(index) else { return nil }
                    return .arrayElement(parent: parent, index: index, value: elements[index])
                default: return nil
                }
            }
        case .splice(let path, let index, let deleteCount, let items):
            return peek(at: path[...]) { container in
                guard case .array(let elements) = container else { return nil }
                let start = Swift.min(index, elements.count)
                let end = start + Swift.min(deleteCount, elements.count - start)
                return .splice(array: path, start: start, insertedCount: items.count, removed: Array(elements[start..<end]))
            }
        }
    }

    /// Runs `read` on the value at `path` (without changing anything) and returns what it extracted.
    private func peek(at path: ArraySlice<PathStep>, _ read: (JSONValue) -> MutationUndo?) -> MutationUndo? {
        var current = self
        for step in path {
            switch current {
            case .object(let members):
                guard case .key(let key) = step, let value = members[JSONKey(key)] else { return nil }
                current = value
            case .array(let elements):
                guard let index = step.arrayIndex, elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return read(current)
    }
}

extension MutationUndo {
    /// For a `length` set that shortens the array: keep the elements it removes.
    fileprivate func withTail(of elements: [JSONValue], op: MutationOp) -> MutationUndo {
        guard case .arrayLength(let parent, let count, _) = self, case .set(_, .number(let n)) = op,
              n >= 0, n.rounded() == n, n < Double(count) else { return self }
        return .arrayLength(parent: parent, count: count, removedTail: Array(elements[Int(n)...]))
    }
}
