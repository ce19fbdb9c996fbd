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
    /// The server sent more of a file than the manifest's (signed) size: Delivery kept one byte
    /// past `expected` and cancelled the download, so a hostile server or CDN cannot fill the
    /// device's memory.
    case oversized(file: String, expected: Int)
    /// The manifest's sizes add up to more than ``MicroAppDelivery/Configuration/versionLimit``:
    /// nothing of the version is downloaded.
    case oversizedVersion(version: String, size: Int, limit: Int)
    /// The manifest was longer than ``MicroAppDelivery/Configuration/manifestLimit`` bytes:
    /// Delivery cancelled the request there.
    case oversizedManifest(limit: Int)
    /// Signatures are checked (``ReleaseTrust/publicKeys(_:)``) and the version has none.
    case unsigned(version: String)
    /// The version is signed with a key the app does not ship.
    case unknownSigningKey(version: String, keyID: String)
    /// The signature does not verify over the version's statement with the shipped key of its id.
    case badSignature(version: String, keyID: String)
    /// The version's `minNativeVersion` is newer than this shell's `nativeVersion`: a server or
    /// network path named a version this shell cannot run (the server's resolver never does).
    case requiresNewerNative(version: String, minNativeVersion: String, nativeVersion: String)
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
        case .oversized(let file, let expected): "\(file): the server sent more than the \(expected) bytes the manifest says; reading stopped there"
        case .oversizedVersion(let version, let size, let limit):
            "version \(version): the manifest's files add up to \(size) bytes, more than the \(limit) this device takes"
        case .oversizedManifest(let limit): "the manifest is more than \(limit) bytes; reading stopped there"
        case .unsigned(let version): "version \(version) is not signed, and this app runs only signed versions"
        case .unknownSigningKey(let version, let keyID): "version \(version) is signed with key \(keyID), which this app does not ship"
        case .badSignature(let version, let keyID): "version \(version): the signature by key \(keyID) does not match the manifest"
        case .requiresNewerNative(let version, let minimum, let native):
            "version \(version) needs a shell of at least \(minimum), and this one is \(native)"
        case .loadFailed(let version, let reason): "version \(version) threw while loading: \(reason)"
        case .previouslyFailed(let version): "version \(version) failed to load here before"
        case .disk(let reason): "local storage: \(reason)"
        }
    }
}
