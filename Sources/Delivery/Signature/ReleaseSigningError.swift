/// Why a release statement, key or signature could not be made or read (docs/server.md,
/// "Signed releases"). Each case names what was wrong.
public enum ReleaseSigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field of the statement breaks the rules of "Names and values" (or is not a SHA-256 and size).
    case invalidField(field: String, reason: String)
    /// A public key, private key or key file that is not the documented encoding.
    case invalidKey(String)
    /// A signature that is not `{"keyId": <16 hex>, "value": <base64 of 64 bytes>}`.
    case invalidSignature(String)
    /// `ReleaseTrust.publicKeys` was given no key: every version would be refused.
    case noKeys

    public var description: String {
        switch self {
        case .invalidField(let field, let reason): "release statement: \(field): \(reason)"
        case .invalidKey(let reason): "release key: \(reason)"
        case .invalidSignature(let reason): "release signature: \(reason)"
        case .noKeys: "no release public key given: list at least one, or accept unsigned releases explicitly"
        }
    }
}
