/// The identity of a micro-app loaded in a page, and what it may ask of its shell.
///
/// Invariant: a call whose action is not in ``grants`` is answered `refused` and recorded,
/// before any handler (business or framework) is looked up or run.
public struct MicroApp: Sendable, Hashable {
    /// Names the micro-app in traces and in ``BridgeCallContext``.
    public var id: String
    /// The actions it may call.
    public var grants: BridgeGrants

    public init(id: String, grants: BridgeGrants) {
        self.id = id
        self.grants = grants
    }
}
