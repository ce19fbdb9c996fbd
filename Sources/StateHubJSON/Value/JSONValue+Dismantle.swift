extension JSONValue {
    /// Frees the value without recursion, whatever its depth.
    ///
    /// Dropping a value the ordinary way frees each level from inside the one above it: one
    /// stack frame per level, which overflows a thread's stack somewhere past 20,000 levels.
    /// Values read from outside never get there (``JSONParser`` and `Codable` stop at
    /// ``JSONParsingOptions/maximumDepth``, the hub at its own cap); call this for values built
    /// in code whose depth is not bounded. Parts still shared with other values stay alive.
    ///
    /// Hand over the last reference, `(consume value).dismantle()`: a variable otherwise
    /// keeps the value alive until the end of its scope, and frees it the ordinary way there.
    ///
    /// - Complexity: O(n) in the size of the value.
    public consuming func dismantle() {
        var pending: [JSONValue] = [self]
        while let value = pending.popLast() {
            switch value {
            case .array(let elements):
                // The elements move to `pending`; dropping `elements` then only releases
                // references, it frees nothing below this level.
                pending.append(contentsOf: elements)
            case .object(let members):
                pending.append(contentsOf: members.values.elements)
            case .null, .bool, .number, .string:
                break
            }
        }
    }
}
