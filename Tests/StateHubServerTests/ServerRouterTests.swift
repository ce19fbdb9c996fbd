import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// The routes through HummingbirdTesting's router framework, on SQLite.
@Suite(.tags(.unit)) struct ServerRouterTests {
    func withServer(configuration: ServerConfiguration = .init(), _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestServer.sqlite(configuration: configuration).test(.router, body)
    }

    @Test func adminRoutesRefuseMissingAndWrongTokens() async throws {
        try await withServer { client in
            let missing = try await client.execute(uri: "/admin/apps/cart", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(String(buffer: missing.body).contains(#""error":"unauthorized""#))
            #expect(try await client.admin(.get, "/admin/apps/cart", token: "wrong").status == .unauthorized)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x"}"#, token: "wrong").status == .unauthorized)
            #expect(try await client.admin(.get, "/admin/apps/cart").status == .notFound)
        }
    }

    @Test func theBearerSchemeIsCaseInsensitiveAndErrorBodiesKeepOneKeyOrder() async throws {
        try await withServer { client in
            for scheme in ["bearer", "BEARER", "Bearer"] {
                let answer = try await client.execute(uri: "/admin/apps/cart", method: .get,
                                                      headers: [.authorization: "\(scheme) \(TestServer.token)"])
                #expect(answer.status == .notFound, "\(scheme)")
            }
            for header in ["Basic \(TestServer.token)", "Bearer", "Bearer    ", "\(TestServer.token)"] {
                let answer = try await client.execute(uri: "/admin/apps/cart", method: .get, headers: [.authorization: header])
                #expect(answer.status == .unauthorized, "\(header)")
            }
            let missing = try await client.execute(uri: "/admin/apps/cart", method: .get)
            #expect(String(buffer: missing.body) == #"{"error":"unauthorized","message":"a valid bearer token is required"}"#)
            let theme = try await client.admin(.put, "/admin/themes/1.0.0", json: ##"{"metadata":{"version":"1.0.0"},"colors":{"primary":"#12"}}"##)
            let body = String(buffer: theme.body)
            #expect(theme.status == .unprocessableContent)
            #expect(body.hasPrefix(#"{"error":"#) && body.contains(#""message":"#) && body.contains(#""problems":[{"message":"#), "\(body)")
            let error = try #require(body.range(of: #""error""#)), message = try #require(body.range(of: #""message""#)),
                problems = try #require(body.range(of: #""problems""#))
            #expect(error.lowerBound < message.lowerBound && message.lowerBound < problems.lowerBound, "\(body)")
        }
    }

    @Test func rolloutServesTheNewVersionInsideTheBucketAndTheOldOutside() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0")
            try await client.upload("cart", "1.1.0", stylesheet: "body { color: red }")
            #expect(try await client.get("/apps/cart/manifest?user=a").status == .notFound) // no release yet
            let release = #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":30}]}"#
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: release).status == .ok)

            let inside = Fixtures.user(in: 0..<3000, app: "cart")
            let outside = Fixtures.user(in: 3000..<10000, app: "cart")
            let new = try await client.manifest("cart", user: inside, native: "1.0.0")
            #expect(new["version"] as? String == "1.1.0")
            #expect(new["reason"] as? String == "rollout")
            #expect(new["bucket"] as? Int == Bucket.of(app: "cart", user: inside))
            let bundle = new["bundle"] as? [String: Any]
            #expect(bundle?["url"] as? String == "/apps/cart/1.1.0/bundle.js")
            #expect(bundle?["sha256"] as? String == sha256Hex("globalThis.loaded = 'cart@1.1.0';"))
            #expect((new["stylesheet"] as? [String: Any])?["url"] as? String == "/apps/cart/1.1.0/style.css")
            let old = try await client.manifest("cart", user: outside)
            #expect(old["version"] as? String == "1.0.0")
            #expect(old["reason"] as? String == "stable")
            #expect(old["stylesheet"] is NSNull)

            let response = try await client.get("/apps/cart/manifest?user=\(inside)")
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test func bundlesAreImmutableWithContentHashETags() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0", stylesheet: "p{}")
            let response = try await client.get("/apps/cart/1.0.0/bundle.js")
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "globalThis.loaded = 'cart@1.0.0';")
            let tag = "\"\(sha256Hex("globalThis.loaded = 'cart@1.0.0';"))\""
            #expect(response.headers[.eTag] == tag)
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let again = try await client.get("/apps/cart/1.0.0/bundle.js", headers: [.ifNoneMatch: "\"other\", \(tag)"])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(try await client.get("/apps/cart/1.0.0/style.css").headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.get("/apps/cart/9.9.9/bundle.js").status == .notFound)
            // Versions are immutable: the same bytes again are fine, other bytes are refused.
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0",
                                           json: #"{"bundle":"globalThis.loaded = 'cart@1.0.0';","stylesheet":"p{}","minNativeVersion":"1.0.0"}"#).status == .ok)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"other"}"#).status == .conflict)
        }
    }

    @Test func namesVersionsAndPathsAreValidated() async throws {
        try await withServer { client in
            for uri in ["/apps/Cart/manifest?user=a", "/apps/-cart/manifest?user=a", "/apps/..%2F..%2Fetc/manifest?user=a",
                        "/apps/cart/manifest", "/apps/cart/manifest?user=a&nativeVersion=1.0",
                        "/apps/cart/1.0/bundle.js", "/apps/cart/..%2F1.0.0/bundle.js", "/themes/current",
                        "/themes/current?nativeVersion=x", "/themes/01.0.0",
                        "/apps/\(String(repeating: "a", count: 65))/manifest?user=a",
                        "/apps/cart/1.0.0/../../etc/passwd"] { // an asset path with dot segments (docs/server.md, "Assets")
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri) answered \(response.status)")
                #expect(String(buffer: response.body).contains(#""error":"bad-request""#))
            }
            for uri in ["/apps/", "/themes/", "/etc/passwd", "/apps/cart/1.0.0/"] {
                #expect(try await client.get(uri).status == .notFound, "\(uri)")
            }
            #expect(try await client.admin(.put, "/admin/apps/Bad/versions/1.0.0", json: #"{"bundle":"x"}"#).status == .badRequest)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x","minNativeVersion":"v1"}"#).status == .badRequest)
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundel":"x"}"#).status == .badRequest)
        }
    }

    @Test func bodiesOverTheCapAreRefused() async throws {
        try await withServer(configuration: ServerConfiguration(maxUploadBytes: 1000)) { client in
            let big = String(repeating: "x", count: 2000)
            let response = try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"\#(big)"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains(#""error":"too-large""#))
        }
    }

    @Test func releasesNamingMissingVersionsAreRefused() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0")
            let response = try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","users":{"qa":"2.0.0"}}"#)
            #expect(response.status == .unprocessableContent)
            #expect(String(buffer: response.body).contains("2.0.0"))
            #expect(try await client.admin(.put, "/admin/apps/nope/release", json: #"{"stable":"1.0.0"}"#).status == .notFound)
            #expect(try await client.admin(.put, "/admin/apps/cart/release",
                                           json: #"{"stable":"1.0.0","arms":[{"version":"1.0.0","percent":101}]}"#).status == .unprocessableContent)
        }
    }

    @Test func pinAndRollbackChangeWhatEveryoneGets() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0")
            try await client.upload("cart", "1.1.0")
            try await client.upload("cart", "1.2.0")
            #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .conflict)
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
            #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .conflict)
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.1.0"}"#).status == .ok)
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.2.0"}"#).status == .ok)
            #expect(try await client.manifest("cart", user: "u")["version"] as? String == "1.2.0")

            #expect(try await client.admin(.put, "/admin/apps/cart/pin", json: #"{"version":"1.0.0"}"#).status == .ok)
            let pinned = try await client.manifest("cart", user: "u")
            #expect(pinned["version"] as? String == "1.0.0")
            #expect(pinned["reason"] as? String == "pinned")
            #expect(try await client.admin(.put, "/admin/apps/cart/pin", json: #"{"version":"3.0.0"}"#).status == .unprocessableContent)
            #expect(try await client.admin(.delete, "/admin/apps/cart/pin").status == .noContent)
            #expect(try await client.manifest("cart", user: "u")["version"] as? String == "1.2.0")

            #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .ok)
            #expect(try await client.manifest("cart", user: "u")["version"] as? String == "1.1.0")
            #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .ok)
            #expect(try await client.manifest("cart", user: "u")["version"] as? String == "1.0.0")
            #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .conflict)

            let state = try await client.admin(.get, "/admin/apps/cart")
            #expect(String(buffer: state.body).contains(#""stable":"1.0.0""#))
        }
    }

    @Test func themesAreValidatedPublishedAndRevalidated() async throws {
        try await withServer { client in
            let broken = ##"{"metadata":{"version":"1.0.0"},"colors":{"primary":"#12"},"components":{"button":{"textColor":"primry","cornerRadius":-1}}}"##
            let refused = try await client.admin(.put, "/admin/themes/1.0.0", json: broken)
            #expect(refused.status == .unprocessableContent)
            let body = try JSONSerialization.jsonObject(with: Data(refused.body.readableBytesView)) as? [String: Any]
            let problems = (body?["problems"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
            #expect(problems == ["colors.primary", "components.button.textColor", "components.button.cornerRadius"])
            #expect(try await client.admin(.put, "/admin/themes/1.0.1", json: Fixtures.theme("1.0.0")).status == .unprocessableContent)

            #expect(try await client.admin(.put, "/admin/themes/1.0.0", json: Fixtures.theme("1.0.0")).status == .created)
            #expect(try await client.get("/themes/current?nativeVersion=1.4.0").status == .notFound) // not published yet
            #expect(try await client.admin(.post, "/admin/themes/1.0.0/publish").status == .ok)
            let current = try await client.get("/themes/current?nativeVersion=1.4.0")
            #expect(current.status == .ok)
            #expect(current.headers[.cacheControl] == "no-cache")
            let tag = try #require(current.headers[.eTag])
            #expect(tag == "\"\(sha256Hex(Fixtures.theme("1.0.0")))\"")
            let unchanged = try await client.get("/themes/current?nativeVersion=1.0.0", headers: [.ifNoneMatch: tag])
            #expect(unchanged.status == .notModified)
            #expect(try await client.get("/themes/current?nativeVersion=2.0.0").status == .notFound)

            #expect(try await client.admin(.put, "/admin/themes/1.1.0", json: Fixtures.theme("1.1.0", primary: "#FF0000")).status == .created)
            #expect(try await client.admin(.post, "/admin/themes/1.1.0/publish").status == .ok)
            #expect(try await client.get("/themes/current?nativeVersion=1.0.0", headers: [.ifNoneMatch: tag]).status == .ok)
            let fixed = try await client.get("/themes/1.0.0")
            #expect(fixed.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(try await client.get("/themes/1.0.0", headers: [.ifNoneMatch: tag]).status == .notModified)
            // Unpublishing the newest rolls the current theme back.
            #expect(try await client.admin(.post, "/admin/themes/1.1.0/unpublish").status == .ok)
            #expect(try await client.get("/themes/current?nativeVersion=1.0.0", headers: [.ifNoneMatch: tag]).status == .notModified)
            #expect(try await client.get("/themes/1.1.0").status == .notFound)
        }
    }

    @Test func loaderPageCarriesBundleStylesheetThemeAndBridge() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0", stylesheet: "body{margin:0}")
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
            #expect(try await client.admin(.put, "/admin/themes/1.0.0", json: Fixtures.theme("1.0.0")).status == .created)
            #expect(try await client.admin(.post, "/admin/themes/1.0.0/publish").status == .ok)
            let response = try await client.get("/micro-apps/cart?user=u&nativeVersion=1.2.0")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: response.body)
            #expect(html.contains("<style id=\"statehub-theme\">\n/* statehub-theme 1.0.0 */"))
            #expect(html.contains("--color-primary: #007aff;"))
            #expect(html.contains("<link rel=\"stylesheet\" href=\"/apps/cart/1.0.0/style.css\" integrity=\"sha256-"))
            #expect(html.contains("<script src=\"/apps/cart/1.0.0/bundle.js\" integrity=\"sha256-"))
            #expect(html.contains("StateHubBridge"))
            #expect(!html.contains("&lt;"))
            #expect(try await client.get("/micro-apps/nope?user=u").status == .notFound)

            // The store runtime: before the bundle, under a content-hashed name, with SRI, immutable.
            let runtimeTag = try #require(html.range(of: #"<script src="/runtime/pinia-"#))
            let bundleTag = try #require(html.range(of: "/apps/cart/1.0.0/bundle.js"))
            #expect(runtimeTag.lowerBound < bundleTag.lowerBound)
            let path = String(html[runtimeTag.upperBound...].prefix { $0 != "\"" })
            let integrity = try #require(html.range(of: "\(path)\" integrity=\"")).upperBound
            let sri = String(html[integrity...].prefix { $0 != "\"" })
            let runtime = try await client.get("/runtime/pinia-\(path)")
            #expect(runtime.status == .ok)
            #expect(runtime.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(runtime.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let body = String(buffer: runtime.body)
            #expect(body.contains("global.StateHubReactivity = api") && body.contains("global.StateHubPinia = api"))
            #expect(sri == "sha256-" + Data(SHA256.hash(data: Data(body.utf8))).base64EncodedString())
            let tag = try #require(runtime.headers[.eTag])
            #expect(try await client.get("/runtime/pinia-\(path)", headers: [.ifNoneMatch: tag]).status == .notModified)
            #expect(try await client.get("/runtime/pinia-0000000000000000.js").status == .notFound)
        }
    }

    @Test func corsOnlyForTheAdminOrigin() async throws {
        try await withServer(configuration: ServerConfiguration(adminOrigin: "https://admin.example")) { client in
            let preflight = try await client.execute(uri: "/admin/apps/cart/release", method: .options,
                                                     headers: [.origin: "https://admin.example", .accessControlRequestMethod: "PUT"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://admin.example")
            let other = try await client.execute(uri: "/admin/apps/cart/release", method: .options,
                                                 headers: [.origin: "https://evil.example", .accessControlRequestMethod: "PUT"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
            let refused = try await client.execute(uri: "/admin/apps/cart", method: .get, headers: [.origin: "https://admin.example"])
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.accessControlAllowOrigin] == "https://admin.example")
            let publicRoute = try await client.get("/healthz", headers: [.origin: "https://admin.example"])
            #expect(publicRoute.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test func tokensCanBeCreatedAndDeleted() async throws {
        try await withServer { client in
            let created = try await client.admin(.post, "/admin/tokens", json: #"{"label":"ci"}"#)
            #expect(created.status == .created)
            let body = try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any]
            let token = try #require(body?["token"] as? String)
            let id = try #require(body?["id"] as? Int)
            #expect(token.hasPrefix("shk_"))
            #expect(try await client.admin(.get, "/admin/apps/x", token: token).status == .notFound)
            #expect(try await client.admin(.delete, "/admin/tokens/\(id)").status == .noContent)
            #expect(try await client.admin(.get, "/admin/apps/x", token: token).status == .unauthorized)
        }
    }

    @Test func openAPIIsTheDocumentInTheRepository() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/openapi.yaml")
        let expected = try String(contentsOf: file, encoding: .utf8)
        try await withServer { client in
            let response = try await client.get("/openapi.yaml")
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == expected)
            #expect(try await client.get("/metrics").status == .ok)
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    @Test func theRootIsAnIndexThatNamesTheConsole() async throws {
        try await withServer { client in
            let response = try await client.get("/")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let page = String(buffer: response.body)
            for link in ["/console", "/openapi.yaml", "/healthz", "/metrics"] {
                #expect(page.contains(#"href="\#(link)""#), "no link to \(link): \(page)")
            }
        }
    }
}

/// SHA-256 of the UTF-8 of `text`, hex (the same function hashes admin tokens).
func sha256Hex(_ text: String) -> String { AdminToken.hash(text) }

extension ServerRouterTests {
    @Test func headAnswersWithTheHeadersOfGet() async throws {
        try await withServer { client in
            try await client.upload("cart", "1.0.0")
            let head = try await client.execute(uri: "/apps/cart/1.0.0/bundle.js", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.eTag] == "\"\(sha256Hex("globalThis.loaded = 'cart@1.0.0';"))\"")
            #expect(head.body.readableBytes == 0)
        }
    }
}
