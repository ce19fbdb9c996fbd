/// Which other clients' presence changed in one step (y-protocols' awareness `change` event):
/// one awareness message applied, one client dropped for silence, or a lost connection.
public struct PresenceChange: Sendable, Equatable {
    /// Clients present now that were not before.
    public var added: [Int]
    /// Present clients whose state differs from the one held before.
    public var updated: [Int]
    /// Clients that left, fell silent for 30 s, or cannot be heard since the connection was lost.
    public var removed: [Int]

    public init(added: [Int] = [], updated: [Int] = [], removed: [Int] = []) {
        self.added = added
        self.updated = updated
        self.removed = removed
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }
}
