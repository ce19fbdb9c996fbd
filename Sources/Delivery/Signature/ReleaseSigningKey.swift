import Crypto
import Foundation

/// A publisher's Ed25519 secret (private) key (docs/server.md, "Signed releases"). It belongs
/// with the publisher (a CI secret), never on the server or in an app. Its file form is
/// `statehub-ed25519-secret:`, the standard base64 of the raw 32 bytes and a newline.
public struct ReleaseSigningKey: Sendable {
    /// swift-crypto's key type is not `Sendable`: the key is kept as its raw bytes and made when used.
    private let raw: Data
    /// The matching public key, the one an app ships.
    public let publicKey: ReleasePublicKey

    /// A new random key.
    public init() {
        let key = Curve25519.Signing.PrivateKey()
        raw = key.rawRepresentation
        publicKey = ReleasePublicKey(key.publicKey)
    }

    private var key: Curve25519.Signing.PrivateKey {
        // `raw` came from a key or was checked to be one in `init(fileText:)`.
        get throws { try Curve25519.Signing.PrivateKey(rawRepresentation: raw) }
    }

    /// The key from a key file's text. A public key (`statehub-ed25519-public:…`) is refused as
    /// ``ReleaseSigningError/wrongKeyKind(given:wanted:)``, a bare base64 key (no kind) as
    /// ``ReleaseSigningError/untypedKey(wanted:)``.
    public init(fileText: String) throws(ReleaseSigningError) {
        let raw = try ReleaseKeyKind.rawKey(fileText, wanted: .secret)
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
            throw .invalidKey("the 32 bytes after \(ReleaseKeyKind.secret.prefix) are not an Ed25519 secret key")
        }
        self.raw = raw
        publicKey = ReleasePublicKey(key.publicKey)
    }

    /// What a key file holds: `statehub-ed25519-secret:`, the raw key in standard base64, a newline.
    public var fileText: String { ReleaseKeyKind.secret.prefix + raw.base64EncodedString() + "\n" }

    /// The signature of `statement`, naming this key.
    public func sign(_ statement: ReleaseStatement) throws(ReleaseSigningError) -> ReleaseSignature {
        do {
            let bytes = try key.signature(for: statement.bytes)
            return ReleaseSignature(keyID: publicKey.keyID, value: bytes.base64EncodedString())
        } catch {
            throw .invalidKey("signing failed: \(error)")
        }
    }
}
