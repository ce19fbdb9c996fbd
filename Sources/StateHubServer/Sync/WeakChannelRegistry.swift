import NIOCore
import Synchronization

/// The channels of upgraded sync connections, held weakly: how many are still in memory.
///
/// A channel is freed once its connection has ended and nothing holds it; one that stays alive
/// after its connection closed is a leak (about 6 KB each). Tests read ``alive``; the server only adds, one lock and one small allocation per upgrade.
final class WeakChannelRegistry: Sendable {
    private struct Entry: Sendable {
        weak var channel: (any Channel)?
    }

    private struct Entries {
        var list: [Entry] = []
        /// Freed entries are dropped when the list reaches this size, so it stays within twice
        /// the channels alive (amortised constant time per add).
        var pruneAt = 64
    }

    private let entries = Mutex(Entries())

    func add(_ channel: any Channel) {
        entries.withLock { entries in
            if entries.list.count >= entries.pruneAt {
                entries.list.removeAll { $0.channel == nil }
                entries.pruneAt = max(64, entries.list.count * 2)
            }
            entries.list.append(Entry(channel: channel))
        }
    }

    /// Channels added and not yet freed.
    var alive: Int {
        entries.withLock { entries in entries.list.reduce(0) { $0 + ($1.channel == nil ? 0 : 1) } }
    }
}
