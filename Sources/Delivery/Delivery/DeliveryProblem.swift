/// Why Delivery did not load the version the server named (or could not ask).
public enum DeliveryProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer from the server (no network, refused, timed out).
    case unreachable(String)
    /// The server answered with an error status.
    case serverError(status: Int, body: String)
    /// The manifest was not the documented JSON, or named an unusable app or version.
    case invalidManifest(String)
    /// A downloaded file's SHA-256 differs from the manifest's.
    case hashMismatch(file: String, expected: String, actual: String)
    /// A downloaded file's size differs from the manifest's.
    case sizeMismatch(file: String, expected: Int, actual: Int)
    /// The bundle threw while loading.
    case loadFailed(version: String, reason: String)
    /// The server named a version that already failed to load on this device.
    case previouslyFailed(version: String)
    /// Reading or writing the local folder failed.
    case disk(String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "server unreachable: \(reason)"
        case .serverError(let status, let body): "server answered \(status): \(body.prefix(200))"
        case .invalidManifest(let reason): "invalid manifest: \(reason)"
        case .hashMismatch(let file, let expected, let actual): "\(file): sha256 \(actual) differs from the manifest's \(expected)"
        case .sizeMismatch(let file, let expected, let actual): "\(file): \(actual) bytes, the manifest says \(expected)"
        case .loadFailed(let version, let reason): "version \(version) threw while loading: \(reason)"
        case .previouslyFailed(let version): "version \(version) failed to load here before"
        case .disk(let reason): "local storage: \(reason)"
        }
    }
}
