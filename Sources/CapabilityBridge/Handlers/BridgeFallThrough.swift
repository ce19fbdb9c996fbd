/// Thrown by a business handler registered for a framework action to let the framework's
/// own handler answer instead (the override rule, docs/bridge.md).
///
/// A business handler runs first. It either returns (takes over: the framework handler does
/// not run), throws `BridgeFallThrough()` (the framework handler runs with the same payload;
/// side effects the business handler already made stay), or throws any other error (the
/// call fails with it). Thrown for an action with no framework handler, the call fails
/// with `unknown_action`.
public struct BridgeFallThrough: Error, Sendable, Hashable {
    public init() {}
}
