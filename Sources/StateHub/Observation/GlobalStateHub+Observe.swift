import JSEngine
import Observation

extension GlobalStateHub {
    /// An observable view of a store for SwiftUI, kept up to date while you hold it.
    @MainActor
    public func observe(store storeId: String) -> ObservedStore {
        let observed = ObservedStore(storeId: storeId, state: nil, version: 0)
        // Registered before the first read: a change in between then schedules an update.
        observers.add(observed, for: storeId)
        let (state, version) = self.state.withLock { ($0.stores[storeId]?.visibleState, $0.stores[storeId]?.visibleVersion ?? 0) }
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
        let (state, version) = self.state.withLock { ($0.stores[storeId]?.visibleState, $0.stores[storeId]?.visibleVersion ?? 0) }
        mirror.storeDidChange(state: state, version: version)
        return mirror
    }
}
