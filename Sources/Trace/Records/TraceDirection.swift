/// Which way a message crossed the web ↔ native boundary.
///
/// Encoded in traces by its raw value (`"web_to_native"` / `"native_to_web"`).
public enum TraceDirection: String, Codable, Sendable, Hashable, CaseIterable {
    /// A page posted the message to native (through `nativeBridge` or `bridge`).
    case webToNative = "web_to_native"
    /// Native sent the message to a page.
    case nativeToWeb = "native_to_web"

    /// The arrow form used by ``TraceTimeline``: `web→native` or `native→web`.
    public var arrow: String {
        switch self {
        case .webToNative: "web→native"
        case .nativeToWeb: "native→web"
        }
    }
}
