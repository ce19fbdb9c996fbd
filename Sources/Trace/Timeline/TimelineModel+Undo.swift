import StateHubJSON

extension TimelineModel {
    /// How to put back what one operation changed, recorded before it is applied. A message's
    /// operations are applied to the store's state in place (the state is uniquely referenced,
    /// so nothing is copied); when the hub would refuse the message, its undos are applied in
    /// reverse and the state is as before, key order included. Keeping the state before each
    /// message instead made every message copy the containers on its paths: O(state size) per
    /// message, 3,000 one-element writes into a 200,000-element array took 4.6 s.
    enum Undo {
        /// The whole state was replaced.
        case root(JSONValue)
        /// An object member was set or deleted: put `old` back at `position`, or remove the
        /// member when it did not exist.
        case member(parent: [PathStep], key: String, old: JSONValue?, position: Int)
        /// An array element was replaced (or set to null by a delete).
        case element(parent: [PathStep], index: Int, old: JSONValue)
        /// An array grew (a write past its end, a larger `length`): cut it back to `count`.
        case truncate(parent: [PathStep], count: Int)
        /// An array was cut to `from` by a smaller `length`: put `removed` back.
        case restoreSuffix(parent: [PathStep], from: Int, removed: [JSONValue])
        /// A splice: replace what it inserted with what it removed.
        case splice(path: [PathStep], start: Int, inserted: Int, removed: [JSONValue])
    }

    /// The undo of `op` on `state`, before it is applied; nil when it changes nothing or will
    /// fail (a failing op leaves the state unchanged).
    static func undo(for op: MutationOp, in state: JSONValue) -> Undo? {
        switch op {
        case .set(let path, let newValue):
            guard let last = path.last else { return .root(state) }
            let parentPath = Array(path.dropLast())
            switch value(at: parentPath, in: state) {
            case .object(let members)?:
                guard case .key(let key) = last else { return nil }
                let position = members.index(forKey: JSONKey(key))
                return .member(parent: parentPath, key: key, old: position.map { members.values[$0] }, position: position ?? 0)
            case .array(let elements)?:
                if case .key("length") = last {
                    guard let n = newValue.intValue, n >= 0 else { return nil }
                    return n >= elements.count ? .truncate(parent: parentPath, count: elements.count)
                        : .restoreSuffix(parent: parentPath, from: n, removed: Array(elements[n...]))
                }
                guard let index = last.arrayIndex else { return nil }
                return index < elements.count ? .element(parent: parentPath, index: index, old: elements[index])
                    : .truncate(parent: parentPath, count: elements.count)
            default:
                return nil
            }
        case .delete(let path):
            guard let last = path.last else { return nil }
            let parentPath = Array(path.dropLast())
            switch value(at: parentPath, in: state) {
            case .object(let members)?:
                guard case .key(let key) = last, let position = members.index(forKey: JSONKey(key)) else { return nil }
                return .member(parent: parentPath, key: key, old: members.values[position], position: position)
            case .array(let elements)?:
                guard let index = last.arrayIndex, index < elements.count else { return nil }
                return .element(parent: parentPath, index: index, old: elements[index])
            default:
                return nil
            }
        case .splice(let path, let index, let deleteCount, let items):
            guard case .array(let elements)? = value(at: path, in: state) else { return nil }
            let start = min(index, elements.count)
            let end = start + min(deleteCount, elements.count - start)
            return .splice(path: path, start: start, inserted: items.count, removed: Array(elements[start..<end]))
        }
    }

    /// Applies `undo` to `state` (which holds what its operation made).
    static func revert(_ undo: Undo, in state: inout JSONValue) {
        func inArray(_ parent: [PathStep], _ body: (inout [JSONValue]) -> Void) {
            try? state.modifyContainer(at: parent[...], fullPath: parent) { container in
                guard var elements = container.takeArray() else { return }
                body(&elements)
                container = .array(elements)
            }
        }
        switch undo {
        case .root(let old):
            state = old
        case .member(let parent, let key, let old, let position):
            try? state.modifyContainer(at: parent[...], fullPath: parent) { container in
                guard var members = container.takeObject() else { return }
                let name = JSONKey(key)
                if let old {
                    if let index = members.index(forKey: name) {
                        members.values[index] = old
                    } else {
                        members.updateValue(old, forKey: name, insertingAt: min(position, members.count))
                    }
                } else {
                    members.removeValue(forKey: name)
                }
                container = .object(members)
            }
        case .element(let parent, let index, let old):
            inArray(parent) { elements in if elements.indices.contains(index) { elements[index] = old } }
        case .truncate(let parent, let count):
            inArray(parent) { elements in if elements.count > count { elements.removeSubrange(count...) } }
        case .restoreSuffix(let parent, let from, let removed):
            inArray(parent) { elements in
                if elements.count > from { elements.removeSubrange(from...) }
                elements.append(contentsOf: removed)
            }
        case .splice(let path, let start, let inserted, let removed):
            inArray(path) { elements in
                let begin = min(start, elements.count)
                elements.replaceSubrange(begin..<min(begin + inserted, elements.count), with: removed)
            }
        }
    }
}
