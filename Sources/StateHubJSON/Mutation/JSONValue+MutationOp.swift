import OrderedCollections

extension JSONValue {
    /// Applies one operation in place.
    ///
    /// Containers on the path are modified in place, never copied: each level is moved out
    /// of its parent, changed, and moved back, so an operation costs O(depth) plus the work
    /// at the target (O(1) on average for an object key, O(n) for a splice or an
    /// integer-like key insertion), whatever the size of the state.
    ///
    /// New object keys follow JavaScript's order: integer-like keys ascending, before the
    /// others; other keys at the end (docs/PROTOCOL.md, "Key order").
    ///
    /// - Throws: `MutationOpError` when the path does not lead to a suitable container. The
    ///   value is then unchanged.
    public mutating func apply(_ op: MutationOp) throws(MutationOpError) {
        switch op {
        case .set(let path, let value):
            guard let last = path.last else {
                // A store's state is an object (a Pinia store's `$state` is one).
                guard case .object = value else { throw MutationOpError(path: path, reason: "the root of a store's state must be an object") }
                self = value
                return
            }
            try modifyContainer(at: path.dropLast(), fullPath: path) { container throws(MutationOpError) in
                try container.setChild(last, to: value, fullPath: path)
            }
        case .delete(let path):
            guard let last = path.last else { throw MutationOpError(path: path, reason: "cannot delete the root") }
            try modifyContainer(at: path.dropLast(), fullPath: path) { container throws(MutationOpError) in
                try container.deleteChild(last, fullPath: path)
            }
        case .splice(let path, let index, let deleteCount, let items):
            try modifyContainer(at: path[...], fullPath: path) { container throws(MutationOpError) in
                guard var elements = container.takeArray() else {
                    throw MutationOpError(path: path, reason: "splice on a non-array")
                }
                let start = min(index, elements.count)
                let end = start + min(deleteCount, elements.count - start)
                elements.replaceSubrange(start..<end, with: items)
                container = .array(elements)
            }
        }
    }

    /// Runs `body` on the value at `path`, in place.
    ///
    /// Each level is moved out with `takeObject()` / `takeArray()` (see there why not a
    /// `switch`) onto an explicit stack, changed, and moved back: no recursion, so a path of
    /// any length is walked safely (a trace's records can each reach deeper than the last).
    package mutating func modifyContainer(
        at path: ArraySlice<PathStep>, fullPath: [PathStep],
        _ body: (inout JSONValue) throws(MutationOpError) -> Void
    ) throws(MutationOpError) {
        /// A container taken apart on the way down, with the slot its child came from.
        enum Level {
            case object(ObjectMembers, Int)
            case array([JSONValue], Int)
        }
        var levels: [Level] = []
        levels.reserveCapacity(path.count)
        var current = self
        self = .null
        var failure: MutationOpError?
        for step in path {
            if var members = current.takeObject() {
                guard case .key(let key) = step, let position = members.index(forKey: JSONKey(key)) else {
                    current = .object(members)
                    failure = MutationOpError(path: fullPath, reason: "no key \"\(step)\" on the way")
                    break
                }
                current = members.values[position]
                members.values[position] = .null
                levels.append(.object(members, position))
            } else if var elements = current.takeArray() {
                // JavaScript lets scripts address an array element by its string key ("0") too.
                guard let index = step.arrayIndex, elements.indices.contains(index) else {
                    let count = elements.count
                    current = .array(elements)
                    failure = MutationOpError(path: fullPath, reason: "\(step) is not an element of the array (count \(count)) on the way")
                    break
                }
                current = elements[index]
                elements[index] = .null
                levels.append(.array(elements, index))
            } else {
                failure = MutationOpError(path: fullPath, reason: "\(step) does not lead into an object or array")
                break
            }
        }
        if failure == nil {
            do { try body(&current) } catch { failure = error }
        }
        // Back up: each child returns to the slot it was taken from.
        while let level = levels.popLast() {
            switch level {
            case .object(var members, let position):
                members.values[position] = current
                current = .object(members)
            case .array(var elements, let index):
                elements[index] = current
                current = .array(elements)
            }
        }
        self = current
        if let failure { throw failure }
    }

    /// The elements, moved out: `self` is left `null` and the array uniquely referenced, so
    /// changing it does not copy. `nil` (and `self` untouched) for anything else.
    ///
    /// Why not `switch self { case .array(var elements): … }`: unoptimised builds keep the
    /// switch subject alive for the whole case, so the first write copies the array —
    /// O(size) per operation (measured: 9.6 ms per write into 200,000 elements).
    package mutating func takeArray() -> [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }

    /// The members, moved out as `takeArray()` moves elements.
    package mutating func takeObject() -> ObjectMembers? {
        guard case .object(let members) = self else { return nil }
        self = .null
        return members
    }

    /// Most `null`s one operation may add to an array (a write far past its end, a larger
    /// `length`). Beyond it the operation fails and the page is asked for its state: a tiny
    /// message must not make the hub allocate without bound.
    package static let maximumPadding = 100_000

    private mutating func setChild(_ step: PathStep, to value: JSONValue, fullPath: [PathStep]) throws(MutationOpError) {
        if var members = takeObject() {
            guard case .key(let key) = step else {
                self = .object(members)
                throw MutationOpError(path: fullPath, reason: "index \(step) set on an object")
            }
            // An existing key is replaced where it stands: one lookup, not a second one to set it.
            if let position = members.index(forKey: JSONKey(key)) {
                members.values[position] = value
            } else if !key.isArrayIndexKey {
                members[key] = value
            } else {
                members.insertIntegerLikeKey(key, value: value)
            }
            self = .object(members)
        } else if var elements = takeArray() {
            if case .key("length") = step {
                guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 4_294_967_295 else {
                    self = .array(elements)
                    throw MutationOpError(path: fullPath, reason: "array length \(value) is not a valid length")
                }
                guard Int(n) - elements.count <= Self.maximumPadding else {
                    self = .array(elements)
                    throw MutationOpError(path: fullPath, reason: "array length \(Int(n)) grows the array by more than \(Self.maximumPadding)")
                }
                let length = Int(n)
                if length < elements.count { elements.removeSubrange(length...) }
                else { elements.append(contentsOf: repeatElement(.null, count: length - elements.count)) }
                self = .array(elements)
                return
            }
            guard let index = step.arrayIndex else {
                self = .array(elements)
                throw MutationOpError(path: fullPath, reason: "key \"\(step)\" set on an array")
            }
            guard index - elements.count <= Self.maximumPadding else {
                let count = elements.count
                self = .array(elements)
                throw MutationOpError(path: fullPath, reason: "index \(index) is more than \(Self.maximumPadding) past the end (count \(count))")
            }
            elements.set(value, at: index)
            self = .array(elements)
        } else {
            throw MutationOpError(path: fullPath, reason: "parent is not an object or array")
        }
    }

    private mutating func deleteChild(_ step: PathStep, fullPath: [PathStep]) throws(MutationOpError) {
        if var members = takeObject() {
            guard case .key(let key) = step else {
                self = .object(members)
                throw MutationOpError(path: fullPath, reason: "delete of index \(step) on an object")
            }
            members.removeValue(forKey: JSONKey(key))
            self = .object(members)
        } else if var elements = takeArray() {
            guard let index = step.arrayIndex else {
                self = .array(elements)
                throw MutationOpError(path: fullPath, reason: "delete of key \"\(step)\" on an array")
            }
            if elements.indices.contains(index) { elements[index] = .null }
            self = .array(elements)
        } else {
            throw MutationOpError(path: fullPath, reason: "delete inside something that is not an object or array")
        }
    }
}

extension PathStep {
    /// The array index this step names: an index, or a key that is a canonical integer.
    package var arrayIndex: Int? {
        switch self {
        case .index(let index): return index
        case .key(let key):
            guard let index = Int(key), index >= 0, String(index) == key else { return nil }
            return index
        }
    }
}

extension Array where Element == JSONValue {
    /// Replaces, appends, or pads with `null` up to `index` and appends.
    fileprivate mutating func set(_ value: JSONValue, at index: Int) {
        if index < count { self[index] = value; return }
        if index > count { append(contentsOf: repeatElement(.null, count: index - count)) }
        append(value)
    }
}

extension String {
    /// A canonical array index: `"0"`, `"1"`, … `"4294967294"`; no sign, no leading zero.
    package var isArrayIndexKey: Bool {
        guard let first = utf8.first, utf8.count <= 10 else { return false }
        if first == UInt8(ascii: "0") { return utf8.count == 1 }
        guard utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = UInt64(self) else { return false }
        return value < 4_294_967_295
    }
}

extension JSONValue.ObjectMembers {
    /// Inserts an integer-like key where JavaScript would enumerate it: among the leading
    /// integer-like keys, in ascending numeric order.
    ///
    /// The integer-like keys form an ascending prefix of `keys`, so the place is found by
    /// binary search: O(log n) comparisons, then the O(n) move of an insertion in the middle.
    package mutating func insertIntegerLikeKey(_ key: String, value: JSONValue) {
        let number = UInt64(key) ?? 0
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let existing = keys[middle].string
            if existing.isArrayIndexKey, let other = UInt64(existing), other < number { low = middle + 1 } else { high = middle }
        }
        updateValue(value, forKey: JSONKey(key), insertingAt: low)
    }
}
