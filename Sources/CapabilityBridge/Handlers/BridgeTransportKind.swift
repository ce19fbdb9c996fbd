/// Which transport carried a call.
public enum BridgeTransportKind: String, Sendable, Hashable {
    /// `window.webkit.messageHandlers.bridge.postMessage` (B.1).
    case message
    /// The legacy `<scheme>://<api>?params=…&callback=…` URL (B.5).
    case legacyURL = "legacy_url"
}
