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
    /// How many stores have observers, kept with `entries` under its lock: a write to a store
    /// checks it with one atomic load instead of the lock and a hash of the id.
    private let observedStores = Atomic<Int>(0)

    func hasObservers(of storeId: String) -> Bool {
        entries.withLock { $0[storeId]?.isEmpty == false }
    }

    /// False when no store has observers; true when some may (``hasObservers(of:)`` tells which).
    /// Set under the lock before `add` returns, so an observer that reads the mirror after adding
    /// itself is never missed by a later change.
    var mayHaveObservers: Bool { observedStores.load(ordering: .acquiring) != 0 }

    @MainActor
    func add(_ observer: any StoreObserver, for storeId: String) {
        entries.withLock {
            $0[storeId, default: []].append(Entry(observer: observer))
            observedStores.store($0.count, ordering: .releasing)
        }
    }

    @MainActor
    func update(_ storeId: String, state: JSONValue?, version: Int) {
        let kept = entries.withLock { entries -> [Entry] in
            let kept = (entries[storeId] ?? []).filter { $0.observer != nil }
            entries[storeId] = kept.isEmpty ? nil : kept
            observedStores.store(entries.count, ordering: .releasing)
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
