import MicroAppAssets

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

    /// The reason this signature does not have the documented form, or `nil` when it does
    /// (`ReleaseSignatureForm` in MicroAppAssets, Delivery's check too).
    var formProblem: String? { ReleaseSignatureForm.problem(keyID: keyId, value: value) }
}
