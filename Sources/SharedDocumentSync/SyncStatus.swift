/// Where a synced document stands with its server (docs/sync.md §3.3).
public struct SyncStatus: Equatable, Sendable, CustomStringConvertible {
    public enum State: String, Equatable, Sendable {
        /// No connection (none yet, lost, or waiting to retry). Edits are kept on disk.
        case offline
        /// Opening a connection.
        case connecting
        /// Connected; exchanging what each side lacks.
        case syncing
        /// Connected, the server's state applied and every update sent before it kept.
        case synced
    }

    public var state: State
    /// Local updates on disk that the server is not yet known to keep.
    public var pendingUpdates: Int
    /// Why the last connection failed or ended, if it did (cleared once synced).
    public var lastProblem: String?

    public init(state: State, pendingUpdates: Int, lastProblem: String? = nil) {
        self.state = state
        self.pendingUpdates = pendingUpdates
        self.lastProblem = lastProblem
    }

    public var description: String {
        "\(state.rawValue), \(pendingUpdates) pending" + (lastProblem.map { " (\($0))" } ?? "")
    }
}
