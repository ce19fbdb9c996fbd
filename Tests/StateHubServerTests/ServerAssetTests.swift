import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// A version's assets (docs/server.md, "Assets"): upload, manifest, serving, and what is refused.
@Suite(.tags(.integration)) struct ServerAssetTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0x02, 0xFF])
    static let html = Data("<html><script>alert(1)</script></html>".utf8)

    /// An upload body with `assets` as (path, bytes).
    static func body(bundle: String = "globalThis.loaded = 1;", _ assets: [(String, Data)]) -> String {
        let list = assets.map { ["path": $0.0, "data": $0.1.base64EncodedString()] }
        let object: [String: Any] = ["bundle": bundle, "minNativeVersion": "1.0.0", "assets": list]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    static let sample: [(String, Data)] = [
        ("img/logo.png", png), ("fonts/Inter.woff2", Data("woff2".utf8)), ("data/prices.json", Data(#"{"pen":1.5}"#.utf8)),
        ("page.html", html), ("lib/bundle.js", Data("globalThis.more = 2;".utf8)), ("empty.txt", Data()),
    ]

    /// Uploads `sample` as cart 1.0.0 with a release, then runs `body`.
    static func withAssets(_ client: some TestClientProtocol) async throws {
        let upload = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: body(sample))
        #expect(upload.status == .created, "\(String(buffer: upload.body))")
        #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
    }

    /// Every check of a served version with assets; used on SQLite (router and live) and PostgreSQL.
    static func checkServing(_ client: some TestClientProtocol) async throws {
        try await withAssets(client)
        let manifest = try await client.manifest("cart", user: "u")
        let assets = try #require(manifest["assets"] as? [[String: Any]])
        #expect(assets.compactMap { $0["path"] as? String }
            == ["data/prices.json", "empty.txt", "fonts/Inter.woff2", "img/logo.png", "lib/bundle.js", "page.html"])
        let logo = try #require(assets.first { $0["path"] as? String == "img/logo.png" })
        #expect(logo["url"] as? String == "/apps/cart/1.0.0/img/logo.png")
        #expect(logo["sha256"] as? String == sha256Hex(png))
        #expect(logo["size"] as? Int == png.count)

        let expected: [(String, Data, String)] = [
            ("img/logo.png", png, "image/png"), ("fonts/Inter.woff2", Data("woff2".utf8), "font/woff2"),
            ("data/prices.json", Data(#"{"pen":1.5}"#.utf8), "application/json"),
            ("page.html", html, "application/octet-stream"), ("lib/bundle.js", Data("globalThis.more = 2;".utf8), "text/javascript; charset=utf-8"),
            ("empty.txt", Data(), "text/plain; charset=utf-8"),
        ]
        for (path, bytes, type) in expected {
            let response = try await client.get("/apps/cart/1.0.0/\(path)")
            #expect(response.status == .ok, "\(path)")
            #expect(Data(response.body.readableBytesView) == bytes, "\(path)")
            #expect(response.headers[.contentType] == type, "\(path)")
            let tag = "\"\(sha256Hex(bytes))\""
            #expect(response.headers[.eTag] == tag, "\(path)")
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(path)")
            #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
            #expect(response.headers[.contentSecurityPolicy] == "default-src 'none'; sandbox", "\(path)")
            let again = try await client.get("/apps/cart/1.0.0/\(path)", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified, "\(path)")
            #expect(again.body.readableBytes == 0)
        }
        // The bundle and stylesheet routes are unchanged beside the catch-all.
        #expect(String(buffer: try await client.get("/apps/cart/1.0.0/bundle.js").body) == "globalThis.loaded = 1;")
        #expect(try await client.get("/apps/cart/1.0.0/style.css").status == .notFound)
        // Unknown: a valid path the version lacks, another case of a stored path, an unknown version.
        for uri in ["/apps/cart/1.0.0/img/other.png", "/apps/cart/1.0.0/IMG/logo.png", "/apps/cart/2.0.0/img/logo.png",
                    "/apps/nope/1.0.0/img/logo.png", "/apps/cart/1.0.0/img"] {
            let response = try await client.get(uri)
            #expect(response.status == .notFound, "\(uri) answered \(response.status)")
        }
    }

    func withServer(configuration: ServerConfiguration = .init(), _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestServer.sqlite(configuration: configuration).test(.router, body)
    }

    @Test func assetsAreListedAndServedImmutableWithTypesFromTheirExtension() async throws {
        try await withServer { client in try await Self.checkServing(client) }
    }

    @Test func assetsAreServedOverLoopback() async throws {
        try await TestServer.sqlite().test(.live) { client in try await Self.checkServing(client) }
    }

    @Test func traversalAndMalformedPathsInURLsAreRefused() async throws {
        try await TestServer.sqlite().test(.live) { client in
            try await Self.withAssets(client)
            // The live client sends each URI as written, unnormalised, as a hostile client would.
            for uri in ["/apps/cart/1.0.0/../../../etc/passwd", "/apps/cart/1.0.0/img/../../1.0.0/bundle.js",
                        "/apps/cart/1.0.0/img/%2e%2e/logo.png", "/apps/cart/1.0.0/..%2F..%2Fstatehub.sqlite",
                        "/apps/cart/1.0.0/img//logo.png", "/apps/cart/1.0.0/.hidden", "/apps/cart/1.0.0/img/logo.png%00.html",
                        "/apps/cart/1.0.0/" + String(repeating: "a/", count: 20) + "x"] {
                let response = try await client.get(uri)
                #expect((400..<500).contains(Int(response.status.code)), "\(uri) answered \(response.status)")
                #expect(!String(buffer: response.body).contains("root:"), "\(uri)")
            }
        }
    }

    @Test func uploadsBreakingTheRulesAreRefusedWithEveryProblem() async throws {
        try await withServer(configuration: ServerConfiguration(maxAssetBytes: 10, maxAssetsTotalBytes: 15, maxAssetCount: 4)) { client in
            let refused = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: Self.body([
                ("../etc/passwd", Data("x".utf8)), ("/abs.png", Data("x".utf8)), ("img/Logo.png", Data("12345678".utf8)),
                ("img/logo.png", Data("12345678".utf8)), ("big.bin", Data(count: 11)),
            ]))
            #expect(refused.status == .unprocessableContent)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(refused.body.readableBytesView)) as? [String: Any])
            #expect(body["error"] as? String == "invalid-assets")
            let paths = (body["problems"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
            #expect(paths == ["assets", "assets[0].path", "assets[1].path", "assets[4].data", "assets", "assets[3].path"])
            // Nothing was stored.
            #expect(try await client.admin(.get, "/admin/apps/cart").status == .notFound)

            for (assets, code) in [
                ([("img", Data("a".utf8)), ("img/a.png", Data("b".utf8))], "which is the file img"), // file and folder of one name
                ([("A/b.png", Data("a".utf8)), ("a/B.PNG", Data("b".utf8))], "differs only in case"),
                ([("x.png", Data("a".utf8)), ("x.png", Data("a".utf8))], "listed twice"),
                ([("Bundle.JS", Data("a".utf8))], "own file"),
            ] as [([(String, Data)], String)] {
                let answer = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: Self.body(assets))
                #expect(answer.status == .unprocessableContent, "\(assets.map(\.0))")
                #expect(String(buffer: answer.body).contains(code), "\(String(buffer: answer.body))")
            }
            let notBase64 = #"{"bundle":"x","assets":[{"path":"a.png","data":"not base64!"}]}"#
            let answer = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: notBase64)
            #expect(answer.status == .unprocessableContent)
            #expect(String(buffer: answer.body).contains("assets[0].data"))
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0",
                                           json: #"{"bundle":"x","assets":[{"path":"a.png"}]}"#).status == .badRequest)
        }
    }

    @Test func versionsWithAssetsAreImmutableAndListedForAdmins() async throws {
        try await withServer { client in
            let first = Self.body([("img/logo.png", Self.png), ("a.json", Data("{}".utf8))])
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: first).status == .created)
            let reordered = Self.body([("a.json", Data("{}".utf8)), ("img/logo.png", Self.png)])
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: reordered).status == .ok)
            let changed = Self.body([("a.json", Data("[]".utf8)), ("img/logo.png", Self.png)])
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: changed).status == .conflict)
            let fewer = Self.body([("img/logo.png", Self.png)])
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: fewer).status == .conflict)
            let described = try await client.admin(.get, "/admin/apps/cart")
            let app = try #require(try JSONSerialization.jsonObject(with: Data(described.body.readableBytesView)) as? [String: Any])
            let listed = ((app["versions"] as? [[String: Any]])?.first?["assets"] as? [[String: Any]]) ?? []
            #expect(listed.compactMap { $0["path"] as? String } == ["a.json", "img/logo.png"])
            #expect(listed.compactMap { $0["url"] as? String } == ["/apps/cart/1.0.0/a.json", "/apps/cart/1.0.0/img/logo.png"])
            #expect(listed.last?["sha256"] as? String == sha256Hex(Self.png))
            // A version without assets lists an empty array in the manifest.
            try await client.upload("shop", "1.0.0")
            #expect(try await client.admin(.put, "/admin/apps/shop/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
            #expect((try await client.manifest("shop", user: "u")["assets"] as? [Any])?.isEmpty == true)
        }
    }
}

func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
}
