/// A change to the document's JSON, in the operations docs/PROTOCOL.md uses.
public enum PathOperation: Equatable, Sendable {
    /// Set the value at `path` (a map key, or a text's whole string).
    case set(path: [PathStep], value: YValue)
    /// Remove the map key at `path`.
    case delete(path: [PathStep])
    /// `Array.prototype.splice(index, deleteCount, ...items)` on the array at `path`.
    case splice(path: [PathStep], index: Int, deleteCount: Int, items: [YValue])

    var path: [PathStep] {
        switch self {
        case .set(let path, _), .delete(let path), .splice(let path, _, _, _): path
        }
    }
}
