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
