import Foundation
import MicroAppAssets

/// A publisher's signature of a ``ReleaseStatement``, as the upload and the manifest carry it:
/// `{"keyId": "<16 hex>", "value": "<base64>"}` (docs/server.md, "Signed releases").
public struct ReleaseSignature: Sendable, Hashable, Codable {
    /// The signing key's id (``ReleasePublicKey/keyID``).
    public var keyID: String
    /// The 64-byte Ed25519 signature, standard base64.
    public var value: String

    public init(keyID: String, value: String) {
        self.keyID = keyID
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case keyID = "keyId"
        case value
    }

    /// The signature's 64 bytes, when `keyID` and `value` have the documented form
    /// (`ReleaseSignatureForm` in MicroAppAssets, the server's check on upload too).
    public func checkedBytes() throws(ReleaseSigningError) -> Data {
        guard ReleaseSignatureForm.isKeyID(keyID) else {
            throw .invalidSignature("keyId \(keyID.prefix(80).debugDescription) is not \(ReleaseSignatureForm.keyIDLength) lowercase hex digits")
        }
        guard let bytes = ReleaseSignatureForm.signature(value) else {
            throw .invalidSignature("value is not the standard base64 of \(ReleaseSignatureForm.signatureBytes) bytes")
        }
        return bytes
    }
}
