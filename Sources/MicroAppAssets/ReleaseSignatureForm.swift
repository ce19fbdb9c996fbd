import Foundation

/// The form of a publisher's signature as an upload, the database and a manifest carry it:
/// `{"keyId": "<16 lowercase hex>", "value": "<standard base64 of 64 bytes>"}` (docs/server.md,
/// "Signed releases"). The server checks the form on upload (it holds no key); Delivery checks it
/// again before it verifies the signature. One definition, so the two never disagree on what
/// passes.
public enum ReleaseSignatureForm {
    /// Lowercase hex digits in a key id.
    public static let keyIDLength = 16
    /// Bytes of an Ed25519 signature.
    public static let signatureBytes = 64

    /// Whether `text` is a key id: ``keyIDLength`` lowercase hex digits.
    public static func isKeyID(_ text: String) -> Bool { isLowercaseHex(text, count: keyIDLength) }

    /// The signature's bytes, when `value` is the standard base64 (padded) of ``signatureBytes``.
    public static func signature(_ value: String) -> Data? {
        guard value.utf8.count == 88, let bytes = Data(base64Encoded: value), bytes.count == signatureBytes else { return nil }
        return bytes
    }

    /// Whether `text` is exactly `count` digits of `0-9a-f` (a key id, a SHA-256 in a statement).
    public static func isLowercaseHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Why `keyID` and `value` do not have the form, naming the field; `nil` when they do.
    public static func problem(keyID: String, value: String) -> String? {
        guard isKeyID(keyID) else { return "signature.keyId must be \(keyIDLength) lowercase hex digits" }
        guard signature(value) != nil else {
            return "signature.value must be the standard base64 of a \(signatureBytes)-byte Ed25519 signature"
        }
        return nil
    }
}
