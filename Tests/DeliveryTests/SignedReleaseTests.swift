import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
@testable import StateHubServer
import Testing

/// Signed releases end to end (docs/server.md, "Signed releases"): a real server on SQLite, the
/// real Delivery with the public keys an app ships, versions signed with `ReleaseSigningKey`.
@Suite(.tags(.integration)) struct SignedReleaseTests {
    static let token = "signed-release-token"

    /// A data folder whose storage outlives one server: `serve` starts a fresh server over it.
    final class Setup: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-signed-\(UUID().uuidString)")
        let storage: ServerStorage

        init() async throws {
            storage = try await ServerStorage.open(.sqlite(directory: folder.appendingPathComponent("server")), logger: Logger(label: "test"))
        }

        var device: URL { folder.appendingPathComponent("device") }

        /// A new server over the storage (nothing in its memory), live on loopback, for `body`.
        func serve(_ body: @Sendable (any TestClientProtocol, URL) async throws -> Void) async throws {
            let server = try StateHubServer(storage: storage)
            try await server.installAdminToken(SignedReleaseTests.token)
            try await Application(router: server.makeRouter()).test(.live) { client in
                let port = try #require(client.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                try await body(client, url)
            }
        }

        func close() async {
            await storage.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func withSetup(_ body: (Setup) async throws -> Void) async throws {
        let setup = try await Setup()
        do { try await body(setup) } catch {
            await setup.close()
            throw error
        }
        await setup.close()
    }

    static func device(_ url: URL, _ root: URL, trusting keys: [ReleaseSigningKey]) throws -> MicroAppDelivery {
        MicroAppDelivery(configuration: .init(server: url, root: root, nativeVersion: "1.0.0",
                                              releaseTrust: try .publicKeys(keys.map(\.publicKey))), http: FaultyHTTPClient())
    }

    static func bundle(_ version: String) -> String { "globalThis.loaded = '\(version)';" }

    /// The statement of a version as uploaded here: its bundle, its stylesheet if any, and one asset.
    static func statement(_ version: String, bundle: String, stylesheet: String? = nil, asset: Data,
                          minNativeVersion: String = "1.0.0") throws -> ReleaseStatement {
        try ReleaseStatement(app: "cart", version: version, minNativeVersion: minNativeVersion, bundle: .init(of: Data(bundle.utf8)),
                             stylesheet: stylesheet.map { .init(of: Data($0.utf8)) }, assets: [("img/logo.png", .init(of: asset))])
    }

    /// Uploads `version` with `signature` (none: unsigned) and makes it the stable release.
    static func publish(_ client: any TestClientProtocol, _ version: String, bundle: String? = nil, stylesheet: String? = nil,
                        minNativeVersion: String = "1.0.0", signature: ReleaseSignature?) async throws {
        let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
        var body = #"{"bundle":"\#(bundle ?? Self.bundle(version))","minNativeVersion":"\#(minNativeVersion)","#
        if let stylesheet { body += #""stylesheet":"\#(stylesheet)","# }
        body += #""assets":[{"path":"img/logo.png","data":"\#(Self.logo.base64EncodedString())"}]"#
        if let signature { body += #","signature":{"keyId":"\#(signature.keyID)","value":"\#(signature.value)"}"# }
        body += "}"
        let upload = try await client.execute(uri: "/admin/apps/cart/versions/\(version)", method: .put, headers: headers, body: ByteBuffer(string: body))
        #expect(upload.status == .created, "\(String(buffer: upload.body))")
        let release = try await client.execute(uri: "/admin/apps/cart/release", method: .put, headers: headers,
                                               body: ByteBuffer(string: #"{"stable":"\#(version)"}"#))
        #expect(release.status == .ok)
    }

    static let logo = Data("PNG bytes of the logo".utf8)

    /// Signs `version` as `publish` uploads it by default.
    static func sign(_ version: String, stylesheet: String? = nil, minNativeVersion: String = "1.0.0",
                     with key: ReleaseSigningKey) throws -> ReleaseSignature {
        try key.sign(statement(version, bundle: bundle(version), stylesheet: stylesheet, asset: logo, minNativeVersion: minNativeVersion))
    }

    static func load(_ delivery: MicroAppDelivery) async throws -> DeliveredApp {
        try await delivery.load(app: "cart", user: "u") { app async throws in
            #expect(try String(contentsOf: app.bundleFile, encoding: .utf8) == Self.bundle(app.version))
        }
    }

    @Test func aVersionUploadedWithAStolenTokenButNoValidSignatureIsRefused() async throws {
        let publisher = ReleaseSigningKey()
        let attacker = ReleaseSigningKey()
        try await Self.withSetup { setup in
            try await setup.serve { client, url in
                let delivery = try Self.device(url, setup.device, trusting: [publisher])
                try await Self.publish(client, "1.0.0", signature: try Self.sign("1.0.0", with: publisher))
                #expect(try await Self.load(delivery).status == .fresh(version: "1.0.0"))

                // The token is all the attacker has: an unsigned version, one signed with a key of
                // their own, and one carrying the publisher's signature of another version.
                try await Self.publish(client, "1.1.0", signature: nil)
                #expect(try await Self.load(delivery).status == .fallback(version: "1.0.0", reason: .unsigned(version: "1.1.0")))
                try await Self.publish(client, "1.2.0", signature: try Self.sign("1.2.0", with: attacker))
                #expect(try await Self.load(delivery).status
                        == .fallback(version: "1.0.0", reason: .unknownSigningKey(version: "1.2.0", keyID: attacker.publicKey.keyID)))
                try await Self.publish(client, "1.3.0", signature: try Self.sign("1.0.0", with: publisher))
                #expect(try await Self.load(delivery).status
                        == .fallback(version: "1.0.0", reason: .badSignature(version: "1.3.0", keyID: publisher.publicKey.keyID)))

                for refused in ["1.1.0", "1.2.0", "1.3.0"] {
                    #expect(!FileManager.default.fileExists(atPath: setup.device.appendingPathComponent("cart/\(refused)").path))
                }
            }
        }
    }

    @Test func aManifestRewrittenOnTheWayIsRefused() async throws {
        let publisher = ReleaseSigningKey()
        try await Self.withFaultyDelivery(trusting: publisher) { _, client, delivery, http in
            try await Self.publish(client, "1.0.0", signature: try Self.sign("1.0.0", with: publisher))
            _ = try await Self.load(delivery)
            try await Self.publish(client, "1.1.0", signature: try Self.sign("1.1.0", with: publisher))
            // A CDN or proxy lowers the oldest shell the version claims to run in.
            http.fault.withLock { $0 = .rewriteManifest(#""minNativeVersion":"1.0.0""#, #""minNativeVersion":"0.1.0""#) }
            #expect(try await Self.load(delivery).status
                    == .fallback(version: "1.0.0", reason: .badSignature(version: "1.1.0", keyID: publisher.publicKey.keyID)))
            http.fault.withLock { $0 = .none }
            #expect(try await Self.load(delivery).status == .fresh(version: "1.1.0"))
        }
    }

    @Test func aSignedVersionForANewerShellIsRefused() async throws {
        let publisher = ReleaseSigningKey()
        try await Self.withFaultyDelivery(trusting: publisher) { setup, client, delivery, http in
            try await Self.publish(client, "1.0.0", signature: try Self.sign("1.0.0", with: publisher))
            #expect(try await Self.load(delivery).status == .fresh(version: "1.0.0"))
            try await Self.publish(client, "2.0.0", minNativeVersion: "3.0.0", signature: try Self.sign("2.0.0", minNativeVersion: "3.0.0", with: publisher))
            #expect(try await Self.load(delivery).status == .fresh(version: "1.0.0"), "the server's resolver keeps a 1.0.0 shell on 1.0.0")
            // A server or proxy that answers as for a newer shell: the version is signed, and made for 3.0.0.
            http.fault.withLock { $0 = .rewriteManifestRequest("nativeVersion=1.0.0", "nativeVersion=3.0.0") }
            #expect(try await Self.load(delivery).status
                    == .fallback(version: "1.0.0", reason: .requiresNewerNative(version: "2.0.0", minNativeVersion: "3.0.0", nativeVersion: "1.0.0")))
            #expect(!FileManager.default.fileExists(atPath: setup.device.appendingPathComponent("cart/2.0.0").path))
        }
    }

    /// A served setup and a 1.0.0 device trusting `publisher`, whose HTTP client a test can fault.
    static func withFaultyDelivery(trusting publisher: ReleaseSigningKey,
                                   _ body: @Sendable (Setup, any TestClientProtocol, MicroAppDelivery, FaultyHTTPClient) async throws -> Void) async throws {
        try await withSetup { setup in
            try await setup.serve { client, url in
                let http = FaultyHTTPClient()
                let delivery = MicroAppDelivery(configuration: .init(server: url, root: setup.device, nativeVersion: "1.0.0",
                                                                     releaseTrust: try .publicKeys([publisher.publicKey])), http: http)
                try await body(setup, client, delivery, http)
            }
        }
    }

    @Test func bytesChangedInStorageAfterUploadAreRefused() async throws {
        let publisher = ReleaseSigningKey()
        try await Self.withSetup { setup in
            try await setup.serve { client, url in
                try await Self.publish(client, "1.0.0", signature: try Self.sign("1.0.0", with: publisher))
                #expect(try await Self.load(try Self.device(url, setup.device, trusting: [publisher])).status == .fresh(version: "1.0.0"))
                try await Self.publish(client, "1.1.0", signature: try Self.sign("1.1.0", with: publisher))
            }
            // Someone with the database changes the bundle's bytes, the same length, the hash column kept.
            let original = Data(Self.bundle("1.1.0").utf8)
            let evil = Data(Self.bundle("6.6.6").utf8)
            let originalHash = ServerStorage.sha256Hex(original)
            try await setup.storage.backend.transaction { db in
                try await db.raw("UPDATE blobs SET data = \(bind: evil) WHERE sha256 = \(bind: originalHash)").run()
            }
            try await setup.serve { _, url in
                let status = try await Self.load(try Self.device(url, setup.device, trusting: [publisher])).status
                #expect(status == .fallback(version: "1.0.0", reason: .hashMismatch(file: "bundle.js", expected: originalHash,
                                                                                    actual: ServerStorage.sha256Hex(evil))))
            }
            // Then the hash too, consistently: the manifest now names the new bytes, which nobody signed.
            let evilHash = ServerStorage.sha256Hex(evil)
            try await setup.storage.backend.transaction { db in
                try await db.raw("INSERT INTO blobs (sha256, size, data) VALUES (\(bind: evilHash), \(bind: evil.count), \(bind: evil))").run()
                try await db.raw("UPDATE app_versions SET bundle_sha256 = \(bind: evilHash) WHERE version = '1.1.0'").run()
            }
            try await setup.serve { client, url in
                let manifest = try await client.execute(uri: "/apps/cart/manifest?user=u", method: .get)
                #expect(String(buffer: manifest.body).contains(evilHash), "the server now names the changed bytes")
                let status = try await Self.load(try Self.device(url, setup.device, trusting: [publisher])).status
                #expect(status == .fallback(version: "1.0.0", reason: .badSignature(version: "1.1.0", keyID: publisher.publicKey.keyID)))
            }
            #expect(!FileManager.default.fileExists(atPath: setup.device.appendingPathComponent("cart/1.1.0").path))
        }
    }

    @Test func aVersionSignedWithARotatedKeyIsAccepted() async throws {
        let old = ReleaseSigningKey()
        let new = ReleaseSigningKey()
        try await Self.withSetup { setup in
            try await setup.serve { client, url in
                let rotated = try Self.device(url, setup.device, trusting: [old, new])
                let stale = try Self.device(url, setup.folder.appendingPathComponent("stale-device"), trusting: [old])
                try await Self.publish(client, "1.0.0", signature: try Self.sign("1.0.0", with: old))
                #expect(try await Self.load(rotated).status == .fresh(version: "1.0.0"))
                #expect(try await Self.load(stale).status == .fresh(version: "1.0.0"))
                try await Self.publish(client, "1.1.0", signature: try Self.sign("1.1.0", with: new))
                #expect(try await Self.load(rotated).status == .fresh(version: "1.1.0"))
                // An app that ships only the old key stays on its last good version.
                #expect(try await Self.load(stale).status
                        == .fallback(version: "1.0.0", reason: .unknownSigningKey(version: "1.1.0", keyID: new.publicKey.keyID)))
                // An app that dropped the old key does not fall back to a version only the old key signed.
                try await Self.publish(client, "1.2.0", signature: nil)
                let dropped = try Self.device(url, setup.folder.appendingPathComponent("stale-device"), trusting: [new])
                await #expect(throws: DeliveryError(app: "cart", problems: [.unsigned(version: "1.2.0")])) {
                    _ = try await Self.load(dropped)
                }
            }
        }
    }
}

/// The statement and keys without a server.
@Suite(.tags(.unit)) struct ReleaseStatementTests {
    @Test func theStatementIsTheDocumentedText() throws {
        let statement = try ReleaseStatement(
            app: "cart", version: "1.3.0", minNativeVersion: "2.0.0", bundle: .init(of: Data("a".utf8)), stylesheet: nil,
            assets: [("img/logo.png", .init(of: Data("b".utf8))), ("fonts/Inter.woff2", .init(of: Data()))])
        // The hashes are SHA-256 of "a", "" and "b" (as `printf a | sha256sum` prints them).
        #expect(statement.text == """
            statehub-release-v1
            app cart
            version 1.3.0
            minNativeVersion 2.0.0
            bundle ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb 1
            stylesheet -
            asset fonts/Inter.woff2 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 0
            asset img/logo.png 3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d 1

            """)
    }

    @Test func aSignatureVerifiesOnlyOverItsOwnStatementAndKey() throws {
        let key = ReleaseSigningKey()
        let statement = try ReleaseStatement(app: "cart", version: "1.0.0", minNativeVersion: "1.0.0",
                                             bundle: .init(of: Data("a".utf8)), stylesheet: nil, assets: [])
        let other = try ReleaseStatement(app: "cart", version: "1.0.1", minNativeVersion: "1.0.0",
                                         bundle: .init(of: Data("a".utf8)), stylesheet: nil, assets: [])
        let signature = try key.sign(statement)
        #expect(key.publicKey.verifies(signature, of: statement))
        #expect(!key.publicKey.verifies(signature, of: other))
        #expect(!ReleaseSigningKey().publicKey.verifies(signature, of: statement))
        // The key file and the public key's text read back as the same key.
        let reread = try ReleaseSigningKey(fileText: key.fileText)
        #expect(reread.publicKey == key.publicKey)
        #expect(try ReleasePublicKey(text: key.publicKey.text) == key.publicKey)
        #expect(key.publicKey.keyID.count == 16)
    }

    @Test func fieldsThatBreakTheRulesAreRefusedByName() {
        let digest = ReleaseStatement.Digest(of: Data("a".utf8))
        #expect(throws: ReleaseSigningError.invalidField(field: "app", reason: "\"Cart\" is not an app name")) {
            try ReleaseStatement(app: "Cart", version: "1.0.0", minNativeVersion: "1.0.0", bundle: digest, stylesheet: nil, assets: [])
        }
        #expect(throws: ReleaseSigningError.invalidField(field: "version", reason: "\"1.0\" is not a semantic version")) {
            try ReleaseStatement(app: "cart", version: "1.0", minNativeVersion: "1.0.0", bundle: digest, stylesheet: nil, assets: [])
        }
        #expect(throws: ReleaseSigningError.self) {
            try ReleaseStatement(app: "cart", version: "1.0.0", minNativeVersion: "1.0.0", bundle: digest, stylesheet: nil,
                                 assets: [("../etc/passwd", digest)])
        }
        #expect(throws: ReleaseSigningError.self) {
            try ReleaseStatement(app: "cart", version: "1.0.0", minNativeVersion: "1.0.0",
                                 bundle: .init(sha256: digest.sha256.uppercased(), size: 1), stylesheet: nil, assets: [])
        }
        #expect(throws: ReleaseSigningError.noKeys) { try ReleaseTrust.publicKeys([]) }
        #expect(throws: ReleaseSigningError.self) { try ReleasePublicKey(text: "not a key") }
    }

    @Test func eachKeyTextSaysItsKind() throws {
        let key = ReleaseSigningKey()
        let secretBase64 = String(key.fileText.dropFirst(ReleaseKeyKind.secret.prefix.count).dropLast())
        #expect(key.fileText.hasPrefix("statehub-ed25519-secret:") && key.fileText.hasSuffix("\n"))
        #expect(key.publicKey.text.hasPrefix("statehub-ed25519-public:"))
        #expect(Data(base64Encoded: secretBase64)?.count == 32)
        #expect(Data(base64Encoded: String(key.publicKey.text.dropFirst(ReleaseKeyKind.public.prefix.count)))?.count == 32)
    }

    @Test func aSecretKeyWhereAPublicKeyBelongsIsRefusedWithoutEchoingIt() throws {
        let key = ReleaseSigningKey()
        let error = #expect(throws: ReleaseSigningError.wrongKeyKind(given: .secret, wanted: .public)) {
            try ReleasePublicKey(text: key.fileText)
        }
        let message = try #require(error).description
        #expect(message.contains("this is a secret key, and a public key is wanted here"), "\(message)")
        #expect(!message.contains(String(key.fileText.dropFirst(ReleaseKeyKind.secret.prefix.count).prefix(8))), "\(message)")
        // The app's key list goes through the same reader.
        #expect(throws: ReleaseSigningError.wrongKeyKind(given: .secret, wanted: .public)) {
            try ReleaseTrust.publicKeys([try ReleasePublicKey(text: key.fileText)])
        }
    }

    @Test func aPublicKeyWhereASecretKeyBelongsIsRefused() {
        let key = ReleaseSigningKey()
        let error = #expect(throws: ReleaseSigningError.wrongKeyKind(given: .public, wanted: .secret)) {
            try ReleaseSigningKey(fileText: key.publicKey.text + "\n")
        }
        #expect(error?.description.contains("this is a public key, and a secret key is wanted here") == true, "\(String(describing: error))")
    }

    @Test func aBareBase64KeyIsRefusedWithHowToMakeANewPair() {
        let key = ReleaseSigningKey()
        let barePublic = String(key.publicKey.text.dropFirst(ReleaseKeyKind.public.prefix.count))
        let bareSecret = String(key.fileText.dropFirst(ReleaseKeyKind.secret.prefix.count))
        let error = #expect(throws: ReleaseSigningError.untypedKey(wanted: .public)) { try ReleasePublicKey(text: barePublic) }
        #expect(error?.description.contains("statehub release keygen --out FILE") == true, "\(String(describing: error))")
        #expect(throws: ReleaseSigningError.untypedKey(wanted: .secret)) { try ReleaseSigningKey(fileText: bareSecret) }
    }
}
