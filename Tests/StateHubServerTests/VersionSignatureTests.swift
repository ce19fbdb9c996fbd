import Foundation
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
@testable import StateHubServer
import Testing

/// The server's part of signed releases (docs/server.md, "Signed releases"): it stores a
/// signature's form with the version, serves it in the manifest, the admin API and the console,
/// and migrates databases made before signatures existed.
@Suite(.tags(.integration)) struct VersionSignatureTests {
    static let keyID = "0123456789abcdef"
    static let value = Data((0..<64).map { UInt8($0) }).base64EncodedString()

    static func body(bundle: String, keyID: String? = VersionSignatureTests.keyID, value: String = VersionSignatureTests.value) -> String {
        let signature = keyID.map { #","signature":{"keyId":"\#($0)","value":"\#(value)"}"# } ?? ""
        return #"{"bundle":"\#(bundle)","minNativeVersion":"1.0.0"\#(signature)}"#
    }

    static func json(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
    }

    @Test func aSignatureIsStoredAndServedWithItsVersion() async throws {
        try await TestServer.sqlite().test(.router) { client in
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: Self.body(bundle: "a")).status == .created)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.1.0", json: Self.body(bundle: "b", keyID: nil)).status == .created)
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","users":{"u2":"1.1.0"}}"#).status == .ok)

            let signed = try await client.manifest("cart", user: "u1")
            #expect(signed["signature"] as? [String: String] == ["keyId": Self.keyID, "value": Self.value])
            let unsigned = try await client.manifest("cart", user: "u2")
            #expect(unsigned["version"] as? String == "1.1.0")
            #expect(unsigned["signature"] is NSNull, "an unsigned version's manifest says so: \(unsigned)")

            let app = try #require(try Self.json(try await client.admin(.get, "/admin/apps/cart")) as? [String: Any])
            let versions = try #require(app["versions"] as? [[String: Any]])
            #expect(versions.map { $0["signature"] as? [String: String] } == [["keyId": Self.keyID, "value": Self.value], nil])
            #expect(versions.last?["signature"] is NSNull)

            let console = try #require(try Self.json(try await client.admin(.get, "/admin/console/apps/cart/versions")) as? [[String: Any]])
            #expect(console.map { $0["signatureKeyId"] as? String } == [Self.keyID, nil])
            // Absent, not null, for an unsigned version: as docs/console.md and the OpenAPI document say.
            #expect(console.last.map { $0.keys.contains("signatureKeyId") } == false, "\(console)")
        }
    }

    @Test func theSignatureIsPartOfTheImmutableVersion() async throws {
        try await TestServer.sqlite().test(.router) { client async throws in
            let path = "/admin/apps/cart/versions/1.0.0"
            #expect(try await client.admin(.put, path, json: Self.body(bundle: "a")).status == .created)
            #expect(try await client.admin(.put, path, json: Self.body(bundle: "a")).status == .ok)
            let otherValue = Data(repeating: 7, count: 64).base64EncodedString()
            #expect(try await client.admin(.put, path, json: Self.body(bundle: "a", value: otherValue)).status == .conflict)
            #expect(try await client.admin(.put, path, json: Self.body(bundle: "a", keyID: nil)).status == .conflict)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.1.0", json: Self.body(bundle: "b", keyID: nil)).status == .created)
            // Signing an uploaded unsigned version is another upload, not a change to it.
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.1.0", json: Self.body(bundle: "b")).status == .conflict)
        }
    }

    @Test(arguments: [
        (#"{"keyId":"0123456789ABCDEF","value":"\#(VersionSignatureTests.value)"}"#, "keyId must be 16 lowercase hex digits"),
        (#"{"keyId":"0123","value":"\#(VersionSignatureTests.value)"}"#, "keyId must be 16 lowercase hex digits"),
        (#"{"keyId":"0123456789abcdef","value":"AAAA"}"#, "value must be the standard base64 of a 64-byte"),
        (#"{"keyId":"0123456789abcdef","value":"\#(VersionSignatureTests.value)","kid":"x"}"#, #"unknown member \"kid\" in signature"#),
    ])
    func aMalformedSignatureIsABadRequest(signature: String, message: String) async throws {
        try await TestServer.sqlite().test(.router) { client in
            let response = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0",
                                                  json: #"{"bundle":"a","signature":\#(signature)}"#)
            #expect(response.status == .badRequest)
            #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
            #expect(try await client.admin(.get, "/admin/apps/cart").status == .notFound, "nothing was stored")
        }
    }

    /// A database made before migration 7 (its versions unsigned) opens, migrates, and serves them.
    static func migratesAnExistingDatabase(open: () async throws -> ServerStorage, backend: any SQLBackend) async throws {
        try await backend.transaction { db in
            try await db.raw("CREATE TABLE statehub_migrations (id BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)").run()
            for migration in Migrations.all where migration.id < Migrations.releaseSignatures.id {
                for statement in migration.statements(backend.isPostgres) { try await db.raw(SQLQueryString(statement)).run() }
                try await db.raw("INSERT INTO statehub_migrations (id, name, applied_at) VALUES (\(bind: migration.id), \(bind: migration.name), 0)").run()
            }
            let hash = ServerStorage.sha256Hex(Data("old".utf8))
            try await db.raw("INSERT INTO blobs (sha256, size, data) VALUES (\(bind: hash), 3, \(bind: Data("old".utf8)))").run()
            try await db.raw("INSERT INTO apps (name) VALUES ('cart')").run()
            try await db.raw("""
                INSERT INTO app_versions (app, version, bundle_sha256, min_native_version, created_at) VALUES ('cart', '1.0.0', \(bind: hash), '1.0.0', 0)
                """).run()
        }
        await backend.shutdown()
        let storage = try await open()
        do {
            let versions = try await storage.state().versions
            #expect(versions.map(\.version) == ["1.0.0"])
            #expect(versions.first?.signature == nil)
            #expect(try await storage.putVersion(app: "cart", version: "1.1.0", bundle: Data("new".utf8), stylesheet: nil, minNativeVersion: "1.0.0",
                                                 signature: VersionSignature(keyId: keyID, value: value), by: nil) == .created)
            #expect(try await storage.state().versions.first { $0.version == "1.1.0" }?.signature?.keyId == keyID)
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    @Test func anExistingSQLiteDatabaseIsMigrated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-signatures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try await SQLiteBackend.open(directory: directory, logger: Logger(label: "test"))
        try await Self.migratesAnExistingDatabase(open: { try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test")) },
                                                  backend: backend)
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"))
    func anExistingPostgresDatabaseIsMigrated() async throws {
        let url = try await PostgresTestDatabase.fresh()
        let backend = try PostgresBackend.open(url: url, logger: Logger(label: "test"))
        try await Self.migratesAnExistingDatabase(open: { try await ServerStorage.open(.postgres(url: url), logger: Logger(label: "test")) },
                                                  backend: backend)
    }
}
