import Crypto
import Foundation

/// A publisher's Ed25519 public key as an app ships it: `statehub-ed25519-public:` and the
/// standard base64 of its raw 32 bytes (docs/server.md, "Signed releases").
public struct ReleasePublicKey: Sendable, Hashable {
    /// The raw 32 bytes, checked to be a key when made (swift-crypto's key type is not `Sendable`).
    private let raw: Data
    /// The key as an app ships it and `statehub release keygen` prints it:
    /// `statehub-ed25519-public:` and the raw 32 bytes in standard base64.
    public let text: String
    /// The first 8 bytes of SHA-256 of the raw key, lowercase hex: what a signature names.
    public let keyID: String

    /// The key from its ``text``. A secret key (`statehub-ed25519-secret:…`) is refused as
    /// ``ReleaseSigningError/wrongKeyKind(given:wanted:)``, a bare base64 key (no kind) as
    /// ``ReleaseSigningError/untypedKey(wanted:)``.
    public init(text: String) throws(ReleaseSigningError) {
        let raw = try ReleaseKeyKind.rawKey(text, wanted: .public)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
            throw .invalidKey("the 32 bytes after \(ReleaseKeyKind.public.prefix) are not an Ed25519 public key")
        }
        self.init(key)
    }

    init(_ key: Curve25519.Signing.PublicKey) {
        raw = key.rawRepresentation
        text = ReleaseKeyKind.public.prefix + key.rawRepresentation.base64EncodedString()
        keyID = DeliveryDisk.sha256Hex(key.rawRepresentation).prefix(16).description
    }

    /// Whether `signature` is this key's (by id) and verifies over `statement`'s bytes.
    public func verifies(_ signature: ReleaseSignature, of statement: ReleaseStatement) -> Bool {
        guard signature.keyID == keyID, let bytes = try? signature.checkedBytes(),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(bytes, for: statement.bytes)
    }

    public static func == (left: ReleasePublicKey, right: ReleasePublicKey) -> Bool { left.raw == right.raw }
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}
