import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import JSEngine
import Logging
import NIOCore
import StateHubServer
import StyleTokens
import Synchronization
import Testing

/// Delivery against a real server on loopback, loading bundles into the real engine.
@Suite(.tags(.integration)) struct DeliveryTests {
    static let token = "delivery-test-token"

    /// A live server on SQLite, a Delivery over a faulty-on-demand client, and an admin client.
    func withSetup(keep: Int = 3,
                   _ body: @Sendable (MicroAppDelivery, FaultyHTTPClient, any TestClientProtocol, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-delivery-\(UUID().uuidString)")
        let storage = try await ServerStorage.open(.sqlite(directory: folder.appendingPathComponent("server")), logger: Logger(label: "test"))
        let server = try StateHubServer(storage: storage)
        try await server.installAdminToken(Self.token)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try await Application(router: server.makeRouter()).test(.live) { client in
                let port = try #require(client.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                let http = FaultyHTTPClient()
                let delivery = MicroAppDelivery(configuration: .init(server: url, root: folder.appendingPathComponent("device"),
                                                                     nativeVersion: "1.0.0", keep: keep, releaseTrust: .unsignedAccepted),
                                                http: http)
                try await body(delivery, http, client, folder.appendingPathComponent("device"))
            }
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }

    struct Upload: Encodable {
        struct Asset: Encodable { var path: String, data: String }
        var bundle: String
        var minNativeVersion = "1.0.0"
        var assets: [Asset]
    }

    /// Publishes `version` as the stable release, with `assets` (path → bytes) beside the bundle.
    func publish(_ client: any TestClientProtocol, _ version: String, bundle: String? = nil, assets: [String: Data] = [:]) async throws {
        let source = bundle ?? "globalThis.loaded = '\(version)';"
        let body = Upload(bundle: source, assets: assets.sorted { $0.key < $1.key }.map { .init(path: $0.key, data: $0.value.base64EncodedString()) })
        let json = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        let headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentType: "application/json"]
        let upload = try await client.execute(uri: "/admin/apps/cart/versions/\(version)", method: .put, headers: headers, body: ByteBuffer(string: json))
        #expect(upload.status == .created)
        let release = try await client.execute(uri: "/admin/apps/cart/release", method: .put, headers: headers,
                                               body: ByteBuffer(string: #"{"stable":"\#(version)"}"#))
        #expect(release.status == .ok)
    }

    /// Loads the bundle file into a fresh engine and returns `globalThis.loaded`.
    static func loadIntoEngine(_ app: DeliveredApp) async throws -> String {
        let engine = try JavaScriptEngine()
        defer { Task { await engine.close() } }
        let source = try String(contentsOf: app.bundleFile, encoding: .utf8)
        try await engine.execute(source, sourceURL: app.bundleFile.path)
        guard case .string(let loaded) = try await engine.evaluate("globalThis.loaded") else { return "" }
        return loaded
    }

    @Test func installsVerifiedVersionsAndKeepsTheLastN() async throws {
        try await withSetup(keep: 2) { delivery, _, client, root in
            for version in ["1.0.0", "1.1.0", "1.2.0"] {
                try await publish(client, version)
                let app = try await delivery.load(app: "cart", user: "u") { app in
                    let loaded = try await Self.loadIntoEngine(app)
                    #expect(loaded == app.version)
                }
                #expect(app.status == .fresh(version: version))
                #expect(app.bundleFile.path == root.appendingPathComponent("cart/\(version)/bundle.js").path)
            }
            let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("cart").path)
                .filter { !$0.hasPrefix(".") && $0 != "state.json" }.sorted()
            #expect(folders == ["1.1.0", "1.2.0"])
            #expect(await delivery.status(of: "cart") == .fresh(version: "1.2.0"))
        }
    }

    @Test func offlineLoadsTheLastGoodVersionFromDisk() async throws {
        try await withSetup { delivery, http, client, _ in
            try await publish(client, "1.0.0")
            _ = try await delivery.load(app: "cart", user: "u") { _ in }
            http.fault.withLock { $0 = .offline }
            let app = try await delivery.load(app: "cart", user: "u") { app in
                let loaded = try await Self.loadIntoEngine(app)
                #expect(loaded == "1.0.0")
            }
            #expect(app.status == .offline(version: "1.0.0", reason: .unreachable("injected: no network")))
            http.fault.withLock { $0 = .serverError }
            let failing = try await delivery.load(app: "cart", user: "u") { _ in }
            #expect(failing.status == .fallback(version: "1.0.0", reason: .serverError(status: 503, body: "injected")))
        }
    }

    @Test func aHashMismatchFallsBackAndSaysWhy() async throws {
        try await withSetup { delivery, http, client, root in
            try await publish(client, "1.0.0")
            _ = try await delivery.load(app: "cart", user: "u") { _ in }
            try await publish(client, "1.1.0")
            http.fault.withLock { $0 = .corruptBundles }
            let app = try await delivery.load(app: "cart", user: "u") { _ in }
            #expect(app.version == "1.0.0")
            guard case .fallback(_, .hashMismatch(let file, _, _)) = app.status else {
                Issue.record("expected a hash mismatch, got \(app.status)")
                return
            }
            #expect(file == "bundle.js")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("cart/1.1.0").path))
            http.fault.withLock { $0 = .none }
            #expect(try await delivery.load(app: "cart", user: "u") { _ in }.status == .fresh(version: "1.1.0"))
        }
    }

    @Test func aBundleThatThrowsFallsBackAndIsNotLoadedAgain() async throws {
        try await withSetup { delivery, _, client, _ in
            try await publish(client, "1.0.0")
            _ = try await delivery.load(app: "cart", user: "u") { app in _ = try await Self.loadIntoEngine(app) }
            try await publish(client, "1.1.0", bundle: "throw new Error('broken release');")
            let loaded = Mutex<[String]>([])
            let app = try await delivery.load(app: "cart", user: "u") { app in
                loaded.withLock { $0.append(app.version) }
                _ = try await Self.loadIntoEngine(app)
            }
            #expect(loaded.withLock { $0 } == ["1.1.0", "1.0.0"])
            #expect(app.version == "1.0.0")
            guard case .fallback(_, .loadFailed(let version, let reason)) = app.status else {
                Issue.record("expected loadFailed, got \(app.status)")
                return
            }
            #expect(version == "1.1.0")
            #expect(reason.contains("broken release"))
            let again = try await delivery.load(app: "cart", user: "u") { app in _ = try await Self.loadIntoEngine(app) }
            #expect(again.status == .fallback(version: "1.0.0", reason: .previouslyFailed(version: "1.1.0")))
        }
    }

    static func assets(_ version: String) -> [String: Data] {
        ["img/logo.png": Data([0x89, 0x50, 0x4E, 0x47, UInt8(version.utf8.count)]), "data/prices.json": Data(#"{"v":"\#(version)"}"#.utf8),
         "fonts/Inter.woff2": Data("same font in every version".utf8)]
    }

    @Test func assetsAreInstalledBesideTheBundleAndLoadOffline() async throws {
        try await withSetup { delivery, http, client, root in
            try await publish(client, "1.0.0", assets: Self.assets("1.0.0"))
            let app = try await delivery.load(app: "cart", user: "u") { app in
                let loaded = try await Self.loadIntoEngine(app)
                #expect(loaded == "1.0.0")
            }
            #expect(app.status == .fresh(version: "1.0.0"))
            #expect(app.folder.path == root.appendingPathComponent("cart/1.0.0").path)
            #expect(app.manifest.assets.map(\.path) == ["data/prices.json", "fonts/Inter.woff2", "img/logo.png"])
            #expect(Set(app.assetFiles.keys) == Set(Self.assets("1.0.0").keys))
            for (path, bytes) in Self.assets("1.0.0") {
                let file = root.appendingPathComponent("cart/1.0.0/\(path)")
                #expect(app.assetFiles[path]?.path == file.path)
                #expect(try Data(contentsOf: file) == bytes, "\(path)")
            }
            // Offline, the cached manifest names the assets and they are checked on disk.
            http.fault.withLock { $0 = .offline }
            let offline = try await delivery.load(app: "cart", user: "u") { _ in }
            #expect(offline.status == .offline(version: "1.0.0", reason: .unreachable("injected: no network")))
            #expect(offline.assetFiles == app.assetFiles)
            // A damaged asset on disk makes the version not intact: offline, nothing is left to load.
            try Data("damaged".utf8).write(to: root.appendingPathComponent("cart/1.0.0/img/logo.png"))
            await #expect(throws: DeliveryError.self) { try await delivery.load(app: "cart", user: "u") { _ in } }
            // Back online, the version is downloaded again whole.
            http.fault.withLock { $0 = .none }
            #expect(try await delivery.load(app: "cart", user: "u") { _ in }.status == .fresh(version: "1.0.0"))
            #expect(try Data(contentsOf: root.appendingPathComponent("cart/1.0.0/img/logo.png")) == Self.assets("1.0.0")["img/logo.png"])
        }
    }

    /// A file whose digest matches one of an installed version is not downloaded
    /// again; it is linked (or copied) from there after its bytes were checked on disk.
    @Test func identicalFilesAreReusedFromAnInstalledVersionAfterACheck() async throws {
        try await withSetup { delivery, http, client, root in
            try await publish(client, "1.0.0", assets: Self.assets("1.0.0"))
            _ = try await delivery.load(app: "cart", user: "u") { _ in }
            try await publish(client, "1.1.0", assets: Self.assets("1.1.0"))
            http.log.withLock { $0 = [] }
            let app = try await delivery.load(app: "cart", user: "u") { app in
                let loaded = try await Self.loadIntoEngine(app)
                #expect(loaded == "1.1.0")
            }
            #expect(app.status == .fresh(version: "1.1.0"))
            let fetched = http.log.withLock { $0.map(\.url) }
            // The font and the logo are the same bytes in both versions; prices and the bundle are not.
            #expect(!fetched.contains { $0.hasSuffix("/1.1.0/fonts/Inter.woff2") || $0.hasSuffix("/1.1.0/img/logo.png") }, "\(fetched)")
            #expect(fetched.contains { $0.hasSuffix("/1.1.0/data/prices.json") } && fetched.contains { $0.hasSuffix("/1.1.0/bundle.js") }, "\(fetched)")
            for (path, bytes) in Self.assets("1.1.0") {
                #expect(try Data(contentsOf: root.appendingPathComponent("cart/1.1.0/\(path)")) == bytes, "\(path)")
            }
            // Linked, not copied: one file on disk for both versions (one folder, one volume).
            let inode = { (version: String) in
                try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("cart/\(version)/fonts/Inter.woff2").path)[.systemFileNumber] as? Int
            }
            #expect(try inode("1.1.0") != nil && inode("1.1.0") == inode("1.0.0"))
            // Offline, the version with a reused file is intact on its own.
            http.fault.withLock { $0 = .offline }
            #expect(try await delivery.load(app: "cart", user: "u") { _ in }.status == .offline(version: "1.1.0", reason: .unreachable("injected: no network")))
            http.fault.withLock { $0 = .none }

            // A damaged copy on disk is not reused: the file is downloaded again.
            try await publish(client, "1.2.0", assets: Self.assets("1.2.0"))
            for version in ["1.0.0", "1.1.0"] {
                let font = root.appendingPathComponent("cart/\(version)/fonts/Inter.woff2")
                try? FileManager.default.removeItem(at: font)
                try Data("damaged".utf8).write(to: font)
            }
            http.log.withLock { $0 = [] }
            #expect(try await delivery.load(app: "cart", user: "u") { _ in }.status == .fresh(version: "1.2.0"))
            #expect(http.log.withLock { $0.map(\.url) }.contains { $0.hasSuffix("/1.2.0/fonts/Inter.woff2") })
            #expect(try Data(contentsOf: root.appendingPathComponent("cart/1.2.0/fonts/Inter.woff2")) == Self.assets("1.2.0")["fonts/Inter.woff2"])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("cart").path).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty)
        }
    }

    /// A version's files download four at a time, not one after another (the client
    /// holds each download until four are in flight, so a lower number shows as `most`).
    @Test func filesDownloadFourAtATime() async throws {
        try await withSetup { delivery, http, client, root in
            let assets = Dictionary(uniqueKeysWithValues: (0 ..< 10).map { ("data/part\($0).json", Data(#"{"part":\#($0)}"#.utf8)) })
            try await publish(client, "1.0.0", assets: assets)
            http.gate.withLock { $0 = MicroAppDelivery.maximumConcurrentDownloads }
            let app = try await delivery.load(app: "cart", user: "u") { _ in }
            #expect(app.status == .fresh(version: "1.0.0"))
            #expect(MicroAppDelivery.maximumConcurrentDownloads == 4)
            #expect(http.inFlight.withLock { $0.most } == 4)
            for (path, bytes) in assets { #expect(try Data(contentsOf: root.appendingPathComponent("cart/1.0.0/\(path)")) == bytes) }
        }
    }

    @Test func aHashMismatchOnOneAssetFallsBackToTheLastGoodVersion() async throws {
        try await withSetup { delivery, http, client, root in
            try await publish(client, "1.0.0", assets: Self.assets("1.0.0"))
            _ = try await delivery.load(app: "cart", user: "u") { _ in }
            try await publish(client, "1.1.0", assets: Self.assets("1.1.0"))
            http.fault.withLock { $0 = .corruptPath("1.1.0/data/prices.json") }
            let app = try await delivery.load(app: "cart", user: "u") { app in
                let loaded = try await Self.loadIntoEngine(app)
                #expect(loaded == "1.0.0")
            }
            #expect(app.version == "1.0.0")
            guard case .fallback(_, .hashMismatch(let file, let expected, let actual)) = app.status else {
                Issue.record("expected a hash mismatch, got \(app.status)")
                return
            }
            #expect(file == "data/prices.json")
            #expect(expected.count == 64 && actual.count == 64 && expected != actual)
            // Nothing of 1.1.0 was installed; 1.0.0 is whole.
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("cart/1.1.0").path))
            #expect(try Data(contentsOf: root.appendingPathComponent("cart/1.0.0/data/prices.json")) == Self.assets("1.0.0")["data/prices.json"])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("cart").path).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty)
            http.fault.withLock { $0 = .none }
            #expect(try await delivery.load(app: "cart", user: "u") { _ in }.status == .fresh(version: "1.1.0"))
        }
    }

    @Test func aManifestNamingAHostileAssetPathIsRefusedBeforeAnyFileIsWritten() async throws {
        try await withSetup { delivery, http, client, root in
            try await publish(client, "1.0.0")
            _ = try await delivery.load(app: "cart", user: "u") { _ in }
            try await publish(client, "1.1.0", assets: ["img/logo.png": Data("x".utf8), "img/other.png": Data("y".utf8)])
            for (text, replacement) in [(#""path":"img/logo.png""#, #""path":"../../../escaped.png""#),
                                        (#""path":"img/logo.png""#, #""path":"/tmp/escaped.png""#),
                                        (#""path":"img/other.png""#, #""path":"IMG/logo.png""#)] {
                http.fault.withLock { $0 = .rewriteManifest(text, replacement) }
                let app = try await delivery.load(app: "cart", user: "u") { _ in }
                #expect(app.version == "1.0.0", "\(replacement)")
                guard case .fallback(_, .invalidManifest) = app.status else {
                    Issue.record("expected invalidManifest for \(replacement), got \(app.status)")
                    continue
                }
            }
            #expect(!FileManager.default.fileExists(atPath: root.deletingLastPathComponent().appendingPathComponent("escaped.png").path))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/escaped.png"))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("cart/1.1.0").path))
        }
    }

    @Test func aManifestCachedBeforeAssetsExistedStillDecodes() throws {
        let old = #"{"app":"cart","version":"1.0.0","reason":"stable","variant":null,"bucket":1,"bundle":{"url":"/b","sha256":"\#(String(repeating: "0", count: 64))","size":1},"stylesheet":null,"minNativeVersion":"1.0.0"}"#
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(old.utf8))
        #expect(manifest.assets.isEmpty)
    }

    @Test func nothingOnDiskAndNoNetworkIsATypedError() async throws {
        try await withSetup { delivery, http, _, _ in
            http.fault.withLock { $0 = .offline }
            await #expect(throws: DeliveryError(app: "cart", problems: [.unreachable("injected: no network")])) {
                try await delivery.load(app: "cart", user: "u") { _ in }
            }
            await #expect(throws: DeliveryError.self) { try await delivery.load(app: "../etc", user: "u") { _ in } }
        }
    }

    @Test func themeSourceRevalidatesWithIfNoneMatch() async throws {
        try await withSetup { _, http, client, _ in
            let theme = ##"{"metadata":{"version":"1.2.0"},"colors":{"primary":"#007AFF"}}"##
            let headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentType: "application/json"]
            #expect(try await client.execute(uri: "/admin/themes/1.2.0", method: .put, headers: headers, body: ByteBuffer(string: theme)).status == .created)
            #expect(try await client.execute(uri: "/admin/themes/1.2.0/publish", method: .post, headers: headers).status == .ok)
            let port = try #require(client.port)
            let source = HTTPThemeSource(server: try #require(URL(string: "http://127.0.0.1:\(port)")), http: http)
            let first = try await source.fetchTheme(forMajorVersion: 1)
            let second = try await source.fetchTheme(forMajorVersion: 1)
            #expect(first == Data(theme.utf8))
            #expect(second == first)
            let statuses = http.log.withLock { $0.map(\.status) }
            #expect(statuses == [200, 304])
            #expect(http.log.withLock { $0.last?.headers["If-None-Match"] } == source.entityTag(forMajorVersion: 1))
            do {
                _ = try await source.fetchTheme(forMajorVersion: 2)
                Issue.record("major 2 has no theme")
            } catch let error as ThemeSourceError {
                guard case .notFound = error else { Issue.record("expected notFound, got \(error)"); return }
            }
        }
    }
}
