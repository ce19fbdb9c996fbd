/// What one transaction changed, as path operations, parents before children.
public struct ChangeSet {
    public let operations: [PathOperation]
    /// The transaction's origin.
    public let origin: (any Hashable & Sendable)?
    /// True for local edits, false for applied updates.
    public let local: Bool
}
