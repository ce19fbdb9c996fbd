import JSEngine

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
            guard let last = path.last else { self = value; return }
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
                guard case .array(var elements) = container else {
                    throw MutationOpError(path: path, reason: "splice on a non-array")
                }
                container = .null
                let start = min(index, elements.count)
                let end = start + min(deleteCount, elements.count - start)
                elements.replaceSubrange(start..<end, with: items)
                container = .array(elements)
            }
        }
    }

    /// Runs `body` on the value at `path`, in place.
    ///
    /// Each `switch` is on `self` alone: a tuple such as `(step, self)` would hold a second
    /// reference to the container for the whole case, and the write below would copy it.
    private mutating func modifyContainer(
        at path: ArraySlice<PathStep>, fullPath: [PathStep],
        _ body: (inout JSONValue) throws(MutationOpError) -> Void
    ) throws(MutationOpError) {
        guard let step = path.first else {
            try body(&self)
            return
        }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            guard case .key(let key) = step, let position = members.index(forKey: JSONKey(key)) else {
                throw MutationOpError(path: fullPath, reason: "no key \"\(step)\" on the way")
            }
            self = .null // leaves `members` uniquely referenced
            var child = members.values[position]
            members.values[position] = .null
            var failure: MutationOpError?
            do { try child.modifyContainer(at: rest, fullPath: fullPath, body) } catch { failure = error }
            members.values[position] = child
            self = .object(members)
            if let failure { throw failure }
        case .array(var elements):
            // JavaScript lets scripts address an array element by its string key ("0") too.
            guard let index = step.arrayIndex, elements.indices.contains(index) else {
                throw MutationOpError(path: fullPath, reason: "\(step) is not an element of the array (count \(elements.count)) on the way")
            }
            self = .null // leaves `elements` uniquely referenced
            var child = elements[index]
            elements[index] = .null
            var failure: MutationOpError?
            do { try child.modifyContainer(at: rest, fullPath: fullPath, body) } catch { failure = error }
            elements[index] = child
            self = .array(elements)
            if let failure { throw failure }
        default:
            throw MutationOpError(path: fullPath, reason: "\(step) does not lead into an object or array")
        }
    }

    /// Most `null`s one operation may add to an array (a write far past its end, a larger
    /// `length`). Beyond it the operation fails and the page is asked for its state: a tiny
    /// message must not make the hub allocate without bound.
    static let maximumPadding = 100_000

    private mutating func setChild(_ step: PathStep, to value: JSONValue, fullPath: [PathStep]) throws(MutationOpError) {
        switch self {
        case .object(var members):
            guard case .key(let key) = step else {
                throw MutationOpError(path: fullPath, reason: "index \(step) set on an object")
            }
            self = .null
            if members.index(forKey: JSONKey(key)) != nil || !key.isArrayIndexKey {
                members[key] = value
            } else {
                members.insertIntegerLikeKey(key, value: value)
            }
            self = .object(members)
        case .array(var elements):
            if case .key("length") = step {
                guard case .number(let n) = value, n >= 0, n.rounded() == n, n <= 4_294_967_295 else {
                    throw MutationOpError(path: fullPath, reason: "array length \(value) is not a valid length")
                }
                guard Int(n) - elements.count <= Self.maximumPadding else {
                    throw MutationOpError(path: fullPath, reason: "array length \(Int(n)) grows the array by more than \(Self.maximumPadding)")
                }
                self = .null
                let length = Int(n)
                if length < elements.count { elements.removeSubrange(length...) }
                else { elements.append(contentsOf: repeatElement(.null, count: length - elements.count)) }
                self = .array(elements)
                return
            }
            guard let index = step.arrayIndex else {
                throw MutationOpError(path: fullPath, reason: "key \"\(step)\" set on an array")
            }
            guard index - elements.count <= Self.maximumPadding else {
                throw MutationOpError(path: fullPath, reason: "index \(index) is more than \(Self.maximumPadding) past the end (count \(elements.count))")
            }
            self = .null
            elements.set(value, at: index)
            self = .array(elements)
        default:
            throw MutationOpError(path: fullPath, reason: "parent is not an object or array")
        }
    }

    private mutating func deleteChild(_ step: PathStep, fullPath: [PathStep]) throws(MutationOpError) {
        switch self {
        case .object(var members):
            guard case .key(let key) = step else {
                throw MutationOpError(path: fullPath, reason: "delete of index \(step) on an object")
            }
            self = .null
            members.removeValue(forKey: JSONKey(key))
            self = .object(members)
        case .array(var elements):
            guard let index = step.arrayIndex else {
                throw MutationOpError(path: fullPath, reason: "delete of key \"\(step)\" on an array")
            }
            self = .null
            if elements.indices.contains(index) { elements[index] = .null }
            self = .array(elements)
        default:
            throw MutationOpError(path: fullPath, reason: "delete inside something that is not an object or array")
        }
    }
}

extension PathStep {
    /// The array index this step names: an index, or a key that is a canonical integer.
    var arrayIndex: Int? {
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
    var isArrayIndexKey: Bool {
        guard let first = utf8.first, utf8.count <= 10 else { return false }
        if first == UInt8(ascii: "0") { return utf8.count == 1 }
        guard utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = UInt64(self) else { return false }
        return value < 4_294_967_295
    }
}

extension JSONValue.ObjectMembers {
    /// Inserts an integer-like key where JavaScript would enumerate it: among the leading
    /// integer-like keys, in ascending numeric order.
    fileprivate mutating func insertIntegerLikeKey(_ key: String, value: JSONValue) {
        let number = UInt64(key) ?? 0
        var position = 0
        for existing in keys {
            guard existing.string.isArrayIndexKey, let other = UInt64(existing.string), other < number else { break }
            position += 1
        }
        updateValue(value, forKey: JSONKey(key), insertingAt: position)
    }
}
