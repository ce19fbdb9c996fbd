import JSEngine

/// One change to a mirrored store, as delivered by `GlobalStateHub.changes(of:)`.
///
/// Every change carries the whole new state, so a consumer that skipped changes (see the
/// buffering policy on `changes(of:)`) still ends with the right state.
public struct StoreChange: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The mirror was replaced by a full snapshot (`reason`: `created`, `resync`, `hydrated`).
        case snapshot(reason: String)
        /// Mutations were applied, in order.
        case mutations([AppliedMutation])
        /// The store is no longer hosted by any page; `state` is `nil`.
        case removed
    }

    public var storeId: String
    /// Increases by one with every change of this store's mirror.
    public var version: Int
    public var kind: Kind
    /// The state after the change; `nil` once removed.
    public var state: JSONValue?
}
