/// The coded errors of the capability bridge (docs/PROTOCOL.md B.2 and B.5).
///
/// The raw value is the `error.code` string a page sees; ``legacyNumber`` is the `err`
/// number of the legacy URL-scheme transport.
public enum BridgeErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// No handler (framework or business) for the action.
    case unknownAction = "unknown_action"
    /// The payload (or the request itself) does not decode; the message names the field.
    case badPayload = "bad_payload"
    /// The micro-app is not granted the action.
    case refused
    /// `gotoWebview` to a URL that is not `https` or whose host is not on the allowlist.
    case urlNotAllowed = "url_not_allowed"
    /// The request is over the bridge's size cap.
    case payloadTooLarge = "payload_too_large"
    /// The handler threw.
    case handlerFailed = "handler_failed"
    /// The handler exceeded native's time limit.
    case timeout

    /// The `err` number on the legacy transport (B.5): 1 … 7 in declaration order.
    public var legacyNumber: Int {
        switch self {
        case .unknownAction: 1
        case .badPayload: 2
        case .refused: 3
        case .urlNotAllowed: 4
        case .payloadTooLarge: 5
        case .handlerFailed: 6
        case .timeout: 7
        }
    }
}
