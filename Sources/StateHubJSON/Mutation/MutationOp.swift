/// One precise change to a store's state, as the sync plugin reports it (docs/PROTOCOL.md A.2).
///
/// Applying a message's operations in order to the mirror leaves it equal to the store's state.
///
/// It lives in the JSON layer, below the hub, so that every reader of a trace (the hub's replay,
/// the timeline the CLI and the server's console build) applies operations with this one code.
public enum MutationOp: Sendable, Hashable {
    /// Sets a key or an array element (appending, or padding with `null` past the end);
    /// the empty path replaces the whole state; a last step `"length"` on an array resizes it.
    case set(path: [PathStep], value: JSONValue)
    /// Removes an object key; on an array element leaves a `null` hole, as `delete arr[i]` does.
    case delete(path: [PathStep])
    /// `Array.prototype.splice(index, deleteCount, ...items)` on the array at `path`.
    case splice(path: [PathStep], index: Int, deleteCount: Int, items: [JSONValue])

    public var path: [PathStep] {
        switch self {
        case .set(let path, _), .delete(let path), .splice(let path, _, _, _): path
        }
    }
}

extension MutationOp {
    /// Reads an operation from its wire form `{"op": …, "path": […], …}`.
    ///
    /// - Throws: `MutationOpError` naming the missing or ill-typed field.
    package init(wire value: JSONValue) throws(MutationOpError) {
        guard case .object(let fields) = value else { throw MutationOpError(path: [], reason: "not an object") }
        guard case .array(let rawPath)? = fields["path"] else { throw MutationOpError(path: [], reason: "missing or non-array \"path\"") }
        var path: [PathStep] = []
        path.reserveCapacity(rawPath.count)
        for step in rawPath {
            guard let parsed = PathStep(step) else { throw MutationOpError(path: path, reason: "path step \(step) is neither a key nor an index") }
            path.append(parsed)
        }
        switch fields["op"] {
        case .string("set")?:
            guard let value = fields["value"] else { throw MutationOpError(path: path, reason: "set without \"value\"") }
            self = .set(path: path, value: value)
        case .string("delete")?:
            self = .delete(path: path)
        case .string("splice")?:
            guard let index = fields["index"]?.intValue, index >= 0 else { throw MutationOpError(path: path, reason: "splice without a non-negative integer \"index\"") }
            guard let deleteCount = fields["deleteCount"]?.intValue, deleteCount >= 0 else { throw MutationOpError(path: path, reason: "splice without a non-negative integer \"deleteCount\"") }
            guard case .array(let items)? = fields["items"] else { throw MutationOpError(path: path, reason: "splice without an \"items\" array") }
            self = .splice(path: path, index: index, deleteCount: deleteCount, items: items)
        case let other:
            throw MutationOpError(path: path, reason: "unknown op \(other.map { $0.jsonText() } ?? "(missing)")")
        }
    }

    /// The wire form.
    package var wire: JSONValue {
        switch self {
        case .set(let path, let value): ["op": "set", "path": .array(path.map(\.json)), "value": value]
        case .delete(let path): ["op": "delete", "path": .array(path.map(\.json))]
        case .splice(let path, let index, let deleteCount, let items):
            ["op": "splice", "path": .array(path.map(\.json)), "index": .number(Double(index)),
             "deleteCount": .number(Double(deleteCount)), "items": .array(items)]
        }
    }
}
