extension JSONValue {
    /// How deep a store's state may nest, in *state levels* (docs/PROTOCOL.md A.8.1): the
    /// arrays and objects on the longest chain of the encoded state (tagged values as
    /// encoded), which is also the most op-path steps from the root to a container, plus one.
    /// The plugin and the hub count the same way; the hub refuses what would go deeper, so
    /// nothing that walks a mirror recursively (equality, untagging, printing, replay) can be
    /// driven off the stack.
    public static let maximumStateDepth = 512

    /// Raw JSON levels a web → native message may nest (as `JSONParsingOptions.maximumDepth`
    /// counts them), derived from ``maximumStateDepth`` so that every message whose state is
    /// within the cap parses: the parser counts the innermost scalar as a level too (+1), and
    /// an `apply_mutation` puts an operation's value below six envelope containers (message,
    /// `payload`, `mutations`, one mutation, `ops`, one op). A `set` at path length n with a
    /// value of depth d reaches state depth n + d ≤ cap, so its deepest scalar sits at level
    /// 7 + d ≤ cap + 7; a splice's item (one level below its array) and the `sync_state` /
    /// `action_result` bodies (two or three containers down) stay under the same bound.
    public static let maximumMessageNesting = maximumStateDepth + envelopeNesting + 1

    /// Containers above an operation's value in an `apply_mutation` (the deepest envelope).
    package static let envelopeNesting = 6

    /// The nesting depth: 0 for a scalar, 1 + the deepest child for an array or object (an
    /// empty one is 1). Counts iteratively and stops once it passes `limit`, returning
    /// `limit + 1`, so any value — however deep a page made it — is measured safely.
    ///
    /// - Complexity: O(number of containers visited), at most the size of the value.
    package func nestingDepth(upTo limit: Int = JSONValue.maximumStateDepth) -> Int {
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
    package func resultingDepth(upTo limit: Int = JSONValue.maximumStateDepth) -> Int {
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
