import SharedDocument

/// Awareness entries waiting to be written to one connection, one per client: a newer entry
/// (by clock; at an equal clock the later one) replaces the waiting one in place, so a client's
/// presence is sent once however often it changed meanwhile (docs/sync.md §2.5, "Awareness").
/// Bounded by the clients a document holds (`maxAwarenessClientsPerDocument`) and, in bytes, by
/// ``bytes``, which its owner keeps under `maxPendingAwarenessBytes`.
struct PendingAwareness {
    private(set) var entries: [AwarenessUpdate.Entry] = []
    private var positions: [Int: Int] = [:]
    /// What the waiting entries take in a message, about: each state's bytes and
    /// ``entryOverhead`` for its client id and clock.
    private(set) var bytes = 0

    /// Bytes counted per entry beside its state: two `varUint`s and the state's length.
    static let entryOverhead = 24

    var isEmpty: Bool { entries.isEmpty }

    /// Adds `newer`, keeping the first-seen order of clients.
    mutating func merge(_ newer: [AwarenessUpdate.Entry]) {
        for entry in newer {
            if let position = positions[entry.client] {
                if entries[position].clock <= entry.clock {
                    bytes += entry.state.utf8.count - entries[position].state.utf8.count
                    entries[position] = entry
                }
            } else {
                positions[entry.client] = entries.count
                entries.append(entry)
                bytes += entry.state.utf8.count + Self.entryOverhead
            }
        }
    }

    /// The waiting entries, in order; none wait afterwards.
    mutating func take() -> [AwarenessUpdate.Entry] {
        defer {
            entries = []
            positions = [:]
            bytes = 0
        }
        return entries
    }
}
