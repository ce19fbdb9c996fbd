import Foundation

/// A publisher's signature of a version as uploaded, stored and served:
/// `{"keyId": "<16 hex>", "value": "<base64>"}` (docs/server.md, "Signed releases"). The
/// server checks its form only: it holds no public key, and devices verify.
public struct VersionSignature: Sendable, Hashable, Codable {
    /// The signing key's id: 16 lowercase hex digits.
    public var keyId: String
    /// The 64-byte Ed25519 signature, standard base64.
    public var value: String

    public init(keyId: String, value: String) {
        self.keyId = keyId
        self.value = value
    }

    /// The reason this signature does not have the documented form, or `nil` when it does.
    var formProblem: String? {
        let hex = keyId.utf8
        guard hex.count == 16, hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return "signature.keyId must be 16 lowercase hex digits"
        }
        guard value.utf8.count == 88, let bytes = Data(base64Encoded: value), bytes.count == 64 else {
            return "signature.value must be the standard base64 of a 64-byte Ed25519 signature"
        }
        return nil
    }
}
