/// The names of the two message channels a page talks to native on.
///
/// ``TraceRecord/channel`` is a plain `String` so that a transport with another
/// channel can still be traced; these are the two StateHub itself uses.
public enum TraceChannel {
    /// Store sync: `sync_state`, `apply_mutation`, `dispatch_action`, `action_result`, …
    public static let nativeBridge = "nativeBridge"
    /// Capability calls: `invoke`, `reply`, `event`.
    public static let bridge = "bridge"
}
