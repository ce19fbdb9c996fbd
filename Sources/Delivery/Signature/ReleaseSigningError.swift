/// Why a release statement, key or signature could not be made or read (docs/server.md,
/// "Signed releases"). Each case names what was wrong.
public enum ReleaseSigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field of the statement breaks the rules of "Names and values" (or is not a SHA-256 and size).
    case invalidField(field: String, reason: String)
    /// A public key, secret key or key file that is not the documented encoding.
    case invalidKey(String)
    /// A key of the other kind than the one wanted: a secret key where a public key is read
    /// (an app's key list, `--release-key`), or a public key where a secret key is (signing).
    case wrongKeyKind(given: ReleaseKeyKind, wanted: ReleaseKeyKind)
    /// A bare base64 key without the prefix that says its kind (``ReleaseKeyKind``).
    case untypedKey(wanted: ReleaseKeyKind)
    /// A signature that is not `{"keyId": <16 hex>, "value": <base64 of 64 bytes>}`.
    case invalidSignature(String)
    /// `ReleaseTrust.publicKeys` was given no key: every version would be refused.
    case noKeys

    public var description: String {
        switch self {
        case .invalidField(let field, let reason): "release statement: \(field): \(reason)"
        case .invalidKey(let reason): "release key: \(reason)"
        case .wrongKeyKind(let given, .public):
            "release key: this is a \(given), and a public key is wanted here: ship and pass the public key "
                + "(\(ReleaseKeyKind.public.prefix)…, as `statehub release keygen` prints it), never the secret key"
        case .wrongKeyKind(let given, .secret):
            "release key: this is a \(given), and a secret key is wanted here: sign with the secret key file "
                + "`statehub release keygen --out FILE` wrote (\(ReleaseKeyKind.secret.prefix)…)"
        case .untypedKey(let wanted):
            "release key: a bare base64 key does not say whether it is public or secret, and a \(wanted) is wanted here "
                + "(\(wanted.prefix)…): make a new pair with `statehub release keygen --out FILE`, which writes the secret "
                + "key file and prints the public key in that form"
        case .invalidSignature(let reason): "release signature: \(reason)"
        case .noKeys: "no release public key given: list at least one, or accept unsigned releases explicitly"
        }
    }
}
