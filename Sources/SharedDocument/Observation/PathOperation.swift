/// One step of a path: a map key or an array index.
public enum PathStep: Equatable, Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): "\"\(key)\""
        case .index(let index): "\(index)"
        }
    }
}

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

/// What one transaction changed, as path operations, parents before children.
public struct ChangeSet {
    public let operations: [PathOperation]
    /// The transaction's origin.
    public let origin: (any Hashable & Sendable)?
    /// True for local edits, false for applied updates.
    public let local: Bool
}
