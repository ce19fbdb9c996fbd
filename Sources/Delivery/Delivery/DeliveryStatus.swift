/// What Delivery loaded and why (observable through `MicroAppDelivery.status(of:)`, the
/// `onStatus` callback and a trace record).
public enum DeliveryStatus: Sendable, Hashable, CustomStringConvertible {
    /// The version the server names, verified.
    case fresh(version: String)
    /// The server could not be asked: the last good version from disk.
    case offline(version: String, reason: DeliveryProblem)
    /// The server's version could not be used: the last good version from disk.
    case fallback(version: String, reason: DeliveryProblem)

    public var version: String {
        switch self {
        case .fresh(let version), .offline(let version, _), .fallback(let version, _): version
        }
    }

    public var description: String {
        switch self {
        case .fresh(let version): "fresh \(version)"
        case .offline(let version, let reason): "offline, last good \(version) (\(reason))"
        case .fallback(let version, let reason): "fell back to \(version) (\(reason))"
        }
    }
}
