import JSEngine
import Synchronization

/// The main-actor observers of each store, held weakly: an observer nobody keeps goes away
/// by itself.
final class ObserverRegistry: Sendable {
    private struct Entry: @unchecked Sendable {
        // Only dereferenced on the main actor.
        weak var observer: (any StoreObserver)?
    }

    private let entries = Mutex<[String: [Entry]]>([:])

    func hasObservers(of storeId: String) -> Bool {
        entries.withLock { $0[storeId]?.isEmpty == false }
    }

    @MainActor
    func add(_ observer: any StoreObserver, for storeId: String) {
        entries.withLock { $0[storeId, default: []].append(Entry(observer: observer)) }
    }

    @MainActor
    func update(_ storeId: String, state: JSONValue?, version: Int) {
        let kept = entries.withLock { entries -> [Entry] in
            let kept = (entries[storeId] ?? []).filter { $0.observer != nil }
            entries[storeId] = kept.isEmpty ? nil : kept
            return kept
        }
        for entry in kept { entry.observer?.storeDidChange(state: state, version: version) }
    }
}

/// A main-actor object the hub keeps up to date with one store.
@MainActor
protocol StoreObserver: AnyObject {
    func storeDidChange(state: JSONValue?, version: Int)
}
