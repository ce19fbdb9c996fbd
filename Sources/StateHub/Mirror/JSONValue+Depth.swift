import JSEngine

extension JSONValue {
    // The caps themselves (`maximumStateDepth`, `maximumMessageNesting`) live in StateHubJSON
    // (JSONValue+StateDepth.swift), beside the operations: the trace timeline reads messages
    // as deep as the hub does without importing the hub.

    /// The nesting depth: 0 for a scalar, 1 + the deepest child for an array or object (an
    /// empty one is 1). Counts iteratively and stops once it passes `limit`, returning
    /// `limit + 1`, so any value — however deep a page made it — is measured safely.
    ///
    /// - Complexity: O(number of containers visited), at most the size of the value.
    func nestingDepth(upTo limit: Int = JSONValue.maximumStateDepth) -> Int {
        // A scalar (most writes' value) without the work list's allocation.
        guard isContainer else { return 0 }
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(self, 0)]
        while let (value, above) = pending.popLast() {
            switch value {
            case .array(let elements):
                let depth = above + 1
                if depth > limit { return limit + 1 }
                deepest = max(deepest, depth)
                for element in elements where element.isContainer { pending.append((element, depth)) }
            case .object(let members):
                let depth = above + 1
                if depth > limit { return limit + 1 }
                deepest = max(deepest, depth)
                for element in members.values where element.isContainer { pending.append((element, depth)) }
            default:
                break
            }
        }
        return deepest
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}

extension MutationOp {
    /// The depth of the state after this operation where it writes: path length plus the
    /// value's nesting (a splice adds the array itself). At most `limit + 1`.
    func resultingDepth(upTo limit: Int = JSONValue.maximumStateDepth) -> Int {
        switch self {
        case .set(let path, let value):
            guard path.count <= limit else { return limit + 1 }
            return path.count + value.nestingDepth(upTo: limit - path.count)
        case .delete(let path):
            return min(path.count, limit + 1)
        case .splice(let path, _, _, let items):
            guard path.count < limit else { return limit + 1 }
            let room = limit - path.count - 1
            return path.count + 1 + (items.map { $0.nestingDepth(upTo: room) }.max() ?? 0)
        }
    }
}
