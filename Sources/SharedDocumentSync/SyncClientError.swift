/// Why a synced document could not do what was asked. The connection's own failures are not
/// errors to the caller: they show in ``SyncStatus/lastProblem`` while the client reconnects.
public struct SyncClientError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The document store could not be read or written (the file, SQLite's reason).
        case storage(String)
        /// What the store held for the document does not read as a Yjs update.
        case corruptSnapshot(String)
        /// An edit failed inside the document (its own error, as text).
        case edit(String)
        /// The document was closed.
        case closed
        /// The server URL cannot be used (why).
        case invalidServer(String)
        /// A document name the server would refuse (`[A-Za-z0-9][A-Za-z0-9._-]{0,127}`).
        case invalidName(String)
        /// A presence state whose JSON text is past the server's per-state cap (docs/sync.md §3.5).
        case presenceTooLarge(bytes: Int, maximum: Int)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .storage(let reason): "document store: \(reason)"
        case .corruptSnapshot(let reason): "stored document does not read: \(reason)"
        case .edit(let reason): "edit failed: \(reason)"
        case .closed: "the document is closed"
        case .invalidServer(let reason): "invalid server URL: \(reason)"
        case .invalidName(let name): "invalid document name \"\(name)\": use 1-128 of A-Z a-z 0-9 . _ -, starting with a letter or digit"
        case .presenceTooLarge(let bytes, let maximum): "presence state is \(bytes) bytes of JSON; at most \(maximum)"
        }
    }
}
