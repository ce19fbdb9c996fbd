/// Which versions a device runs (docs/server.md, "Signed releases"): those signed by one of
/// the public keys the app ships, or — opted into by name — any version, unsigned included.
public struct ReleaseTrust: Sendable, Hashable {
    /// Shipped keys by id; `nil` when unsigned versions are accepted.
    private let keys: [String: ReleasePublicKey]?

    /// Runs only versions signed by one of `keys`. Several keys let a publisher rotate: ship
    /// the new key beside the old one, then sign with the new one. Throws ``ReleaseSigningError/noKeys``
    /// for an empty list, which would refuse every version.
    public static func publicKeys(_ keys: [ReleasePublicKey]) throws(ReleaseSigningError) -> ReleaseTrust {
        guard !keys.isEmpty else { throw .noKeys }
        return ReleaseTrust(keys: Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// No signature check: for development, and for apps that do not sign yet.
    public static let unsignedAccepted = ReleaseTrust(keys: nil)

    /// Whether signatures are checked.
    public var checksSignatures: Bool { keys != nil }

    /// Why `manifest` may not be run, or `nil` when it may.
    func problem(with manifest: Manifest) -> DeliveryProblem? {
        guard let keys else { return nil }
        guard let signature = manifest.signature else { return .unsigned(version: manifest.version) }
        guard let key = keys[signature.keyID] else {
            return .unknownSigningKey(version: manifest.version, keyID: String(signature.keyID.prefix(80)))
        }
        let statement: ReleaseStatement
        do {
            statement = try ReleaseStatement(manifest: manifest)
        } catch {
            return .invalidManifest(error.description)
        }
        return key.verifies(signature, of: statement) ? nil : .badSignature(version: manifest.version, keyID: signature.keyID)
    }
}
