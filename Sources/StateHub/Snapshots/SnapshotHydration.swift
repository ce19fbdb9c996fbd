import JSEngine
import Synchronization

/// Where a page's stores are hydrated from when they are created (docs/pool.md, "Hydration
/// before the page's code"). The folder can be set after the engine started: a pooled page is
/// warmed with none and gets one when it is taken.
///
/// Bind it into an engine with `JavaScriptEngine.installSnapshotHydration(_:)` after the
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

    /// The checked snapshot state for `storeId` as JSON text, or `nil` (none, or dropped with a
    /// warning). `initialText` is the store's fresh state as JSON text; one that does not parse
    /// fits no snapshot.
    func take(_ storeId: String, initialText: String) -> String? {
        guard let folder else { return nil }
        let initial = (try? JSONValue(parsing: initialText, options: StoreSnapshotFolder.parsing)) ?? .null
        return folder.hydrationState(of: storeId, fitting: initial)?.jsonText()
    }
}

extension JavaScriptEngine {
    /// Binds `StateHubSnapshots.has(id)` and `StateHubSnapshots.take(id, initialStateJSON)`
    /// (answering the snapshot's state as JSON text, or `null`), which the sync plugin calls as
    /// each store is created (docs/pool.md).
    public func installSnapshotHydration(_ hydration: SnapshotHydration) throws {
        try bind("has", on: "StateHubSnapshots") { arguments in
            guard let storeId = arguments.first?.stringValue else { return .bool(false) }
            return .bool(hydration.has(storeId))
        }
        try bind("take", on: "StateHubSnapshots") { arguments in
            guard let storeId = arguments.first?.stringValue, arguments.count > 1, let initial = arguments[1].stringValue else { return .null }
            return hydration.take(storeId, initialText: initial).map(JSONValue.string) ?? .null
        }
    }
}
