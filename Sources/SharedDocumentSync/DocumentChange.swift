import SharedDocument

/// One transaction's changes to a synced document, as path operations.
public struct DocumentChange: Sendable, Equatable {
    public var operations: [PathOperation]
    /// The tag given to ``SyncedDocument/transact(origin:_:)``, or nil (untagged local edits and
    /// changes from the server).
    public var origin: String?
    /// Whether the change came from the server (another replica's edit).
    public var fromServer: Bool

    public init(operations: [PathOperation], origin: String?, fromServer: Bool) {
        self.operations = operations
        self.origin = origin
        self.fromServer = fromServer
    }
}
