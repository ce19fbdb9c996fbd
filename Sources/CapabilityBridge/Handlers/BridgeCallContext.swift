import JSEngine

/// What a handler knows about the call it is answering.
public struct BridgeCallContext: Sendable {
    /// The page (`PageTransport.pageID`) that called.
    public let pageID: String
    /// The micro-app loaded in that page.
    public let app: MicroApp
    /// The action called.
    public let action: String
    /// The request id (B.1), or the legacy callback name (`nil` when the URL had none).
    public let requestID: String?
    /// Which transport carried the call.
    public let transport: BridgeTransportKind
    /// The payload exactly as the page sent it (key order kept), beside the decoded value.
    public let rawPayload: JSONValue
    /// The page's shell.
    public let shell: any Shell
    let page: AttachedPage
    let host: WeakHost

    /// Sends an event (B.3) to the page that called. No-op once the page is gone.
    public func sendEvent(_ name: String, data: JSONValue = .null) {
        host.value?.sendEvent(name, data: data, to: page)
    }
}

/// A weak reference to the host, so that contexts and tap closures never keep it alive.
struct WeakHost: Sendable {
    weak let value: BridgeHost?
}
