import Foundation

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

    /// The signature's 64 bytes, when `keyID` and `value` have the documented form.
    public func checkedBytes() throws(ReleaseSigningError) -> Data {
        guard Self.isKeyID(keyID) else { throw .invalidSignature("keyId \(keyID.prefix(80).debugDescription) is not 16 lowercase hex digits") }
        guard let bytes = Data(base64Encoded: value), bytes.count == 64 else {
            throw .invalidSignature("value is not the standard base64 of 64 bytes")
        }
        return bytes
    }

    static func isKeyID(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
