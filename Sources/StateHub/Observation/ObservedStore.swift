import JSEngine
import Observation

/// One store's mirrored state for SwiftUI, through the Observation framework.
///
/// Updated on the main actor, coalesced: however many changes arrive while an update is
/// pending, views see one update with the newest state (`version` tells how far it moved).
/// Read-only: change a store by dispatching an action.
@MainActor
@Observable
public final class ObservedStore: StoreObserver {
    public let storeId: String
    /// The newest state; `nil` while no page hosts the store.
    public private(set) var state: JSONValue?
    /// The mirror's version at the last update (0 while the store is absent).
    public private(set) var version: Int

    init(storeId: String, state: JSONValue?, version: Int) {
        self.storeId = storeId
        self.state = state
        self.version = version
    }

    func storeDidChange(state: JSONValue?, version: Int) {
        self.state = state
        self.version = version
    }
}

/// A store's mirrored state decoded as a `Codable` type, for SwiftUI and async code.
///
/// Decoded on the main actor at each (coalesced) update, with tagged values untagged first
/// (see `TaggedValue`). A state that does not decode leaves `value` at its last good
/// decoding and sets `decodingError`, naming the coding path; it never traps.
@MainActor
@Observable
public final class TypedMirror<Value: Decodable & Sendable>: StoreObserver {
    public let storeId: String
    /// The last state that decoded; `nil` before the first or while the store is absent.
    public private(set) var value: Value?
    /// Why the newest state did not decode; `nil` when it did.
    public private(set) var decodingError: String?
    public private(set) var version: Int

    init(storeId: String, state: JSONValue?, version: Int) {
        self.storeId = storeId
        self.version = version
        storeDidChange(state: state, version: version)
    }

    func storeDidChange(state: JSONValue?, version: Int) {
        self.version = version
        guard let state else {
            value = nil
            decodingError = nil
            return
        }
        do {
            value = try state.untagged().decode(Value.self, decoder: TaggedValue.decoder)
            decodingError = nil
        } catch {
            decodingError = String(describing: error)
        }
    }
}

extension GlobalStateHub {
    /// An observable view of a store for SwiftUI, kept up to date while you hold it.
    @MainActor
    public func observe(store storeId: String) -> ObservedStore {
        let observed = ObservedStore(storeId: storeId, state: nil, version: 0)
        // Registered before the first read: a change in between then schedules an update.
        observers.add(observed, for: storeId)
        let (state, version) = self.state.withLock { ($0.stores[storeId]?.state, $0.stores[storeId]?.version ?? 0) }
        observed.storeDidChange(state: state, version: version)
        return observed
    }

    /// A store's state decoded as `Value`, kept up to date while you hold it:
    /// `hub.mirror(CartState.self, store: "cart")`.
    @MainActor
    public func mirror<Value: Decodable & Sendable>(_ type: Value.Type, store storeId: String) -> TypedMirror<Value> {
        let mirror = TypedMirror<Value>(storeId: storeId, state: nil, version: 0)
        // Registered before the first read: a change in between then schedules an update.
        observers.add(mirror, for: storeId)
        let (state, version) = self.state.withLock { ($0.stores[storeId]?.state, $0.stores[storeId]?.version ?? 0) }
        mirror.storeDidChange(state: state, version: version)
        return mirror
    }
}
