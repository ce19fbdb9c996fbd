import Crypto
import Foundation

/// A publisher's Ed25519 public key as an app ships it: the standard base64 of its raw 32 bytes
/// (docs/server.md, "Signed releases").
public struct ReleasePublicKey: Sendable, Hashable {
    /// The raw 32 bytes, checked to be a key when made (swift-crypto's key type is not `Sendable`).
    private let raw: Data
    /// The raw 32 bytes, standard base64.
    public let base64: String
    /// The first 8 bytes of SHA-256 of the raw key, lowercase hex: what a signature names.
    public let keyID: String

    public init(base64 text: String) throws(ReleaseSigningError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: trimmed), raw.count == 32,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else { throw .invalidKey("a public key is the standard base64 of 32 bytes, not \(trimmed.prefix(80).debugDescription)") }
        self.init(key)
    }

    init(_ key: Curve25519.Signing.PublicKey) {
        raw = key.rawRepresentation
        base64 = key.rawRepresentation.base64EncodedString()
        keyID = DeliveryDisk.sha256Hex(key.rawRepresentation).prefix(16).description
    }

    /// Whether `signature` is this key's (by id) and verifies over `statement`'s bytes.
    public func verifies(_ signature: ReleaseSignature, of statement: ReleaseStatement) -> Bool {
        guard signature.keyID == keyID, let bytes = try? signature.checkedBytes(),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(bytes, for: statement.bytes)
    }

    public static func == (left: ReleasePublicKey, right: ReleasePublicKey) -> Bool { left.base64 == right.base64 }
    public func hash(into hasher: inout Hasher) { hasher.combine(base64) }
}
