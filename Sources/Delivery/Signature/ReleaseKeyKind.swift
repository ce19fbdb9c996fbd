import Foundation

/// Which half of a release key pair a text holds, named by its prefix (docs/server.md, "Signed
/// releases"): `statehub-ed25519-public:` or `statehub-ed25519-secret:`, then the standard base64
/// of the raw 32 bytes. The prefix lets every reader refuse the other half: an app that ships a
/// secret key, or a signer handed a public one.
public enum ReleaseKeyKind: String, Sendable, Hashable, CustomStringConvertible {
    case `public`
    case secret

    /// What a key's text starts with.
    public var prefix: String { "statehub-ed25519-\(rawValue):" }

    public var description: String { "\(rawValue) key" }

    /// The raw 32 bytes of a key's text, which must be of the `wanted` kind. Nothing of the
    /// text is repeated in an error: it may be a secret key given where a public one belongs.
    static func rawKey(_ text: String, wanted: ReleaseKeyKind) throws(ReleaseSigningError) -> Data {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for kind in [ReleaseKeyKind.public, .secret] where trimmed.hasPrefix(kind.prefix) {
            guard kind == wanted else { throw .wrongKeyKind(given: kind, wanted: wanted) }
            guard let raw = Data(base64Encoded: String(trimmed.dropFirst(kind.prefix.count))), raw.count == 32 else {
                throw .invalidKey("a \(wanted) is \(wanted.prefix) and the standard base64 of 32 bytes; the text after the prefix is not")
            }
            return raw
        }
        if let raw = Data(base64Encoded: trimmed), raw.count == 32 { throw .untypedKey(wanted: wanted) }
        throw .invalidKey("a \(wanted) is \(wanted.prefix) and the standard base64 of 32 bytes; the text given does not start with \(wanted.prefix)")
    }
}
