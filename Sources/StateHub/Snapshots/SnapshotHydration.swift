import JSEngine
import Synchronization

/// Where a page's stores are hydrated from when they are created (docs/pool.md, "Hydration
/// before the page's code"). The folder can be set after the engine started: a pooled page is
/// warmed with none and gets one when it is taken.
///
/// Bind it into an engine with ``JavaScriptEngine/installSnapshotHydration(_:)`` after the
/// store runtime; the sync plugin asks it, synchronously, as each store is created.
public final class SnapshotHydration: Sendable {
    private let current: Mutex<StoreSnapshotFolder?>

    public init(folder: StoreSnapshotFolder? = nil) {
        current = Mutex(folder)
    }

    /// The folder stores created from now on are hydrated from; `nil`: none.
    public var folder: StoreSnapshotFolder? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Whether a snapshot file exists for `storeId`.
    func has(_ storeId: String) -> Bool {
        folder?.contains(storeId) ?? false
    }

    /// The checked snapshot state for `storeId`, or `nil` (none, or dropped with a warning).
    func take(_ storeId: String, initial: JSONValue) -> JSONValue? {
        folder?.hydrationState(of: storeId, fitting: initial)
    }
}

extension JavaScriptEngine {
    /// Binds `StateHubSnapshots.has(id)` and `StateHubSnapshots.take(id, initialState)`, which
    /// the sync plugin calls as each store is created (docs/pool.md).
    public func installSnapshotHydration(_ hydration: SnapshotHydration) throws {
        try bind("has", on: "StateHubSnapshots") { arguments in
            guard let storeId = arguments.first?.stringValue else { return .bool(false) }
            return .bool(hydration.has(storeId))
        }
        try bind("take", on: "StateHubSnapshots") { arguments in
            guard let storeId = arguments.first?.stringValue, arguments.count > 1 else { return .null }
            return hydration.take(storeId, initial: arguments[1]) ?? .null
        }
    }
}
