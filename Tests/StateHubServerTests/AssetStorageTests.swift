import Foundation
import Logging
import SQLKit
@testable import StateHubServer
import Testing

/// Migration 2 and the asset rows, on SQLite and on the PostgreSQL of scripts/with-postgres.sh.
@Suite(.tags(.integration)) struct AssetStorageTests {
    static func asset(_ path: String, _ text: String) -> UploadedAsset {
        UploadedAsset(path: path, folded: path.lowercased(), data: Data(text.utf8))
    }

    static func exercise(_ storage: ServerStorage) async throws {
        let logo = asset("img/logo.png", "PNG bytes")
        let shared = asset("data/prices.json", #"{"pen":1.5}"#)
        #expect(try await storage.putVersion(app: "cart", version: "1.0.0", bundle: Data("a".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [logo, shared], by: nil) == .created)
        #expect(try await storage.putVersion(app: "cart", version: "1.1.0", bundle: Data("b".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [shared], by: nil) == .created)
        // The same version again: the same assets in another order are unchanged; other assets conflict.
        #expect(try await storage.putVersion(app: "cart", version: "1.0.0", bundle: Data("a".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [shared, logo], by: nil) == .unchanged)
        #expect(try await storage.putVersion(app: "cart", version: "1.0.0", bundle: Data("a".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [logo], by: nil) == .conflict)
        #expect(try await storage.putVersion(app: "cart", version: "1.0.0", bundle: Data("a".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [logo, asset("data/prices.json", "other")], by: nil) == .conflict)

        let state = try await storage.state()
        let versions = Dictionary(uniqueKeysWithValues: state.versions.map { ($0.version, $0) })
        let first = try #require(versions["1.0.0"])
        #expect(first.assets.map(\.path) == ["data/prices.json", "img/logo.png"])
        #expect(first.assetsByPath["img/logo.png"] == AssetRef(sha256: ServerStorage.sha256Hex(Data("PNG bytes".utf8)), size: 9))
        #expect(versions["1.1.0"]?.assets.map(\.path) == ["data/prices.json"])

        // Deduplicated: two bundles and two asset contents, the shared one stored once.
        let blobs = try await storage.backend.read { db in
            try await db.raw("SELECT COUNT(*) AS n FROM blobs").first()?.decode(column: "n", as: Int.self)
        }
        #expect(blobs == 4)

        // The database itself refuses two paths of one version that differ only in case.
        await #expect(throws: (any Error).self) {
            _ = try await storage.putVersion(app: "cart", version: "2.0.0", bundle: Data("c".utf8), stylesheet: nil,
                                             minNativeVersion: "1.0.0", assets: [asset("img/a.png", "1"), asset("IMG/A.png", "2")], by: nil)
        }
        #expect(try await storage.state().versions.count == 2) // the failed upload left nothing behind
        let migrations = try await storage.backend.read { db in
            try await db.raw("SELECT id FROM statehub_migrations ORDER BY id").all().map { try $0.decode(column: "id", as: Int.self) }
        }
        #expect(migrations == Migrations.all.map(\.id))
    }

    @Test func assetsAreStoredDeduplicatedAndCaseFoldedOnSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-assets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test"))
        do { try await Self.exercise(storage) } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"))
    func assetsAreStoredDeduplicatedAndCaseFoldedOnPostgres() async throws {
        let storage = try await ServerStorage.open(.postgres(url: try await PostgresTestDatabase.fresh()), logger: Logger(label: "test"))
        do { try await Self.exercise(storage) } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }
}
