import StateHubJSON

/// Padding: the `null`s an array gains when a `set` writes past its end or raises its `length`.
/// A few bytes of message can ask for many of them, so the hub bounds them (docs/PROTOCOL.md
/// A.8.2): one operation by `JSONValue.maximumPadding`, one message by
/// ``maximumPaddingPerMessage``, and a store, from one whole state to the next, by
/// ``maximumPaddingPerStore``. A whole state (`sync_state`) costs memory in proportion to its
/// text, which the message size cap already bounds; padding alone grows faster than its text.
extension JSONValue {
    /// Most `null`s of padding one message may add to a store, all its operations together.
    public static let maximumPaddingPerMessage = 100_000

    /// Most `null`s of padding a store may gain from operations since its last whole state.
    public static let maximumPaddingPerStore = 1_000_000

    /// How many `null`s `op` adds when applied to this value: a `set` past an array's end, or of
    /// a larger `length`. 0 for anything else, and for an operation that will be refused anyway.
    ///
    /// - Complexity: O(path depth); a `set` whose last step is a non-index key costs O(1).
    func padding(of op: MutationOp) -> Int {
        guard case .set(let path, let value) = op, let last = path.last else { return 0 }
        let isLength = last == .key("length")
        guard isLength || last.arrayIndex != nil else { return 0 }
        guard let count = arrayCount(at: path.dropLast()) else { return 0 }
        if isLength {
            guard let length = value.intValue else { return 0 }
            return max(0, length - count)
        }
        return max(0, (last.arrayIndex ?? 0) - count)
    }

    /// The element count of the array at `path`, or `nil` when no array is there.
    private func arrayCount(at path: ArraySlice<PathStep>) -> Int? {
        var node = self
        for step in path {
            switch node {
            case .object:
                guard case .key(let key) = step, let child = node[key] else { return nil }
                node = child
            case .array:
                guard let index = step.arrayIndex, let child = node[index] else { return nil }
                node = child
            default:
                return nil
            }
        }
        guard case .array(let elements) = node else { return nil }
        return elements.count
    }
}
