import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import StyleTokens
import Testing

/// The console's page and its admin routes (docs/console.md). The page in a real browser is
/// scripts/test-console.py.
@Suite(.tags(.integration)) struct ConsoleRoutesTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/themes")

    static func theme(_ name: String) throws -> String {
        try String(contentsOf: themes.appendingPathComponent(name), encoding: .utf8)
    }

    struct Problem: Decodable, Equatable {
        var path: String
        var severity: String
        var line: Int?
    }

    struct Name: Decodable, Equatable {
        var name: String
        var variable: String
    }

    struct Check: Decodable {
        var valid: Bool
        var version: String?
        var problems: [Problem]
        var stylesheet: String?
        var colors: [Name]
        var fonts: [Name]
        var components: [Name]
    }

    struct Theme: Decodable, Equatable {
        var version: String
        var major: Int
        var sha256: String
        var published: Bool
        var current: Bool
        var createdAt: Int
    }

    struct App: Decodable, Equatable {
        struct Release: Decodable, Equatable {
            var stable: String
            var arms: [Arm]
            var users: [String: String]
        }
        struct Arm: Decodable, Equatable {
            var version: String
            var percent: Double
        }
        var name: String
        var release: Release?
        var pinnedVersion: String?
        var versions: [String]
    }

    struct Version: Decodable, Equatable {
        struct Ref: Decodable, Equatable {
            var sha256: String
            var size: Int
        }
        var version: String
        var minNativeVersion: String
        var createdAt: Int
        var bundle: Ref
        var stylesheet: Ref?
        var assetCount: Int
        var totalBytes: Int
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
    }

    @Test func thePageAndItsFilesAreServedWithTheRuntimeFilledIn() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let page = try await client.get("/console")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy] == "default-src 'self'; frame-ancestors 'none'")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[.cacheControl] == "no-cache")
            let html = String(buffer: page.body)
            #expect(!html.contains("{{"), "every placeholder is filled in")
            #expect(!html.contains("<script>"), "no inline script: the policy allows only the page's own files")
            // The runtime tag names the script the server serves, with that script's integrity.
            let tag = try #require(html.split(separator: "\n").first { $0.contains("/runtime/pinia-") })
            let source = try #require(tag.firstMatch(of: /src="([^"]+)" integrity="sha256-([^"]+)"/))
            let runtime = try await client.get(String(source.1))
            #expect(runtime.status == .ok)
            #expect(Data(SHA256.hash(data: Data(runtime.body.readableBytesView))).base64EncodedString() == String(source.2))

            // The trace timeline's script and style are files too (the policy runs no inline script).
            for (file, type) in [("console.js", "text/javascript; charset=utf-8"), ("console.css", "text/css; charset=utf-8"),
                                 ("timeline.js", "text/javascript; charset=utf-8"), ("timeline.css", "text/css; charset=utf-8")] {
                let answer = try await client.get("/console/\(file)")
                #expect(answer.status == .ok, "\(file)")
                #expect(answer.headers[.contentType] == type)
                #expect(answer.headers[.contentSecurityPolicy] == "default-src 'self'; frame-ancestors 'none'")
                #expect(html.contains("/console/\(file)"), "the page loads \(file)")
            }
            for name in ["index.htm", "other.js", "..", "%2e%2e%2fopenapi.yaml"] {
                let missing = try await client.get("/console/\(name)")
                #expect(missing.status == .notFound, "\(name)")
                if missing.headers[.contentType]?.hasPrefix("application/json") == true {
                    // Our own 404 (not the router's) carries the console's headers like every console answer.
                    #expect(missing.headers[.contentSecurityPolicy] == "default-src 'self'; frame-ancestors 'none'", "\(name)")
                    #expect(missing.headers[.xContentTypeOptions] == "nosniff", "\(name)")
                }
            }
            let unknown = try await client.get("/console/nope.js")
            #expect(unknown.headers[.contentSecurityPolicy] == "default-src 'self'; frame-ancestors 'none'")
            #expect(unknown.headers[.xContentTypeOptions] == "nosniff")
            #expect(String(buffer: try await client.get("/console/nope.js").body).contains(#""error":"unknown-console-file""#))
        }
    }

    @Test func theConsoleAdminRoutesRefuseMissingAndWrongTokens() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/admin/console/apps"), (.get, "/admin/console/themes"),
                (.get, "/admin/console/apps/cart/versions"), (.post, "/admin/console/theme-check"),
                (.post, "/admin/console/trace-timeline"),
            ]
            for (method, uri) in routes {
                let missing = try await client.execute(uri: uri, method: method, body: ByteBuffer(string: "{}"))
                #expect(missing.status == .unauthorized, "\(uri)")
                #expect(missing.headers[.wwwAuthenticate] == "Bearer")
                #expect(try await client.admin(method, uri, json: "{}", token: "wrong").status == .unauthorized, "\(uri)")
            }
            #expect(try await client.admin(.get, "/admin/console/apps").status == .ok)
        }
    }

    /// scripts/fuzz-server.sh fuzzes what /openapi.yaml lists: every console admin route must be there.
    @Test func everyConsoleAdminRouteIsInTheOpenAPIDocument() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let document = String(buffer: try await client.get("/openapi.yaml").body)
            for (path, method) in [("/admin/console/theme-check", "post"), ("/admin/console/themes", "get"), ("/admin/console/apps", "get"),
                                   ("/admin/console/apps/{app}/versions", "get"), ("/admin/console/apps/{app}/releases", "get"),
                                   ("/admin/console/audit", "get"), ("/admin/console/trace-timeline", "post")] {
                #expect(document.contains("\n  \(path):\n    \(method):\n"), "\(method) \(path)")
            }
            #expect(document.contains("last-published-theme"), "the unpublish's 409")
        }
    }

    @Test func theCheckReportsEveryProblemAtItsPathAndLineAndStoresNothing() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let answer = try await client.admin(.post, "/admin/console/theme-check", json: try Self.theme("broken.json"))
            #expect(answer.status == .ok)
            let check = try Self.decode(Check.self, answer)
            #expect(!check.valid)
            #expect(check.version == nil && check.stylesheet == nil && check.components.isEmpty)
            #expect(check.problems == [
                Problem(path: "metadata.version", severity: "error", line: 3),
                Problem(path: "metadata.author", severity: "warning", line: 5),
                Problem(path: "colors.accent", severity: "error", line: 9),
                Problem(path: "fonts.body.size", severity: "error", line: 13),
                Problem(path: "components.primaryButton.backgroundColor", severity: "error", line: 17),
                Problem(path: "components.primaryButton.cornerRadius", severity: "error", line: 19),
                Problem(path: "components.primaryButton.font", severity: "error", line: 20),
                Problem(path: "components.cardView.elevation", severity: "warning", line: 24),
                Problem(path: "components.cardView.shadow.opacity", severity: "error", line: 25),
                Problem(path: "dark.colors.secondary", severity: "error", line: 29),
            ])
            // Malformed JSON is a problem with its place too, not a 400.
            let malformed = try Self.decode(Check.self, try await client.admin(.post, "/admin/console/theme-check", json: "{\n  \"metadata\": {,\n}"))
            #expect(!malformed.valid && malformed.problems.first?.line == 2)
            #expect(try Self.decode([Theme].self, try await client.admin(.get, "/admin/console/themes")).isEmpty)
        }
    }

    @Test func theCheckOfAValidThemeGivesTheStylesheetTheShellGets() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let text = try Self.theme("standard-dark.json")
            let check = try Self.decode(Check.self, try await client.admin(.post, "/admin/console/theme-check", json: text))
            #expect(check.valid && check.version == "1.2.0" && check.problems.isEmpty)
            #expect(check.stylesheet == ThemeCSS.stylesheet(for: try ThemeLoader.load(Data(text.utf8))))
            #expect(check.components == [Name(name: "primaryButton", variable: "--primary-button"), Name(name: "cardView", variable: "--card-view")])
            #expect(check.fonts.map(\.variable) == ["--font-headline", "--font-body", "--font-caption"])
            #expect(check.colors.first == Name(name: "primary", variable: "--color-primary"))
            #expect(check.colors.map(\.name) == ["primary", "secondary", "background", "textPrimary", "textSecondary", "error"])
            // Every variable the preview names is one the stylesheet declares.
            let stylesheet = try #require(check.stylesheet)
            #expect(stylesheet.contains("--primary-button-background-color: #007aff;"))
            #expect(stylesheet.contains("--card-view-shadow-opacity: 0.1;"))
            #expect(try await client.get("/themes/1.2.0").status == .notFound, "a check stores nothing")
        }
    }

    struct ReleaseRow: Decodable, Equatable {
        var id: Int
        var release: App.Release
        var previousID: Int?
        var createdAt: Int
        var current: Bool
    }

    @Test func theReleaseHistoryListsEachReleaseAndRollbackNewestFirst() async throws {
        try await TestServer.sqlite().test(.router) { client in try await Self.checkReleaseHistory(client) }
    }

    static func checkReleaseHistory(_ client: any TestClientProtocol) async throws {
        try await client.upload("menu", "1.0.0")
        try await client.upload("menu", "1.1.0")
        let before = Int(Date().timeIntervalSince1970)
        #expect(try await client.admin(.put, "/admin/apps/menu/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
        #expect(try await client.admin(.put, "/admin/apps/menu/release", json: #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":5}]}"#).status == .ok)
        #expect(try await client.admin(.put, "/admin/apps/menu/release", json: #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":50}]}"#).status == .ok)
        #expect(try await client.admin(.post, "/admin/apps/menu/rollback").status == .ok)
        let after = Int(Date().timeIntervalSince1970)
        let rows = try decode([ReleaseRow].self, try await client.admin(.get, "/admin/console/apps/menu/releases"))
        let five = App.Release(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 5)], users: [:])
        let fifty = App.Release(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 50)], users: [:])
        let first = App.Release(stable: "1.0.0", arms: [], users: [:])
        #expect(rows.map(\.release) == [five, fifty, five, first], "newest first: the rollback restored 5%")
        #expect(rows.map(\.current) == [true, false, false, false])
        #expect(rows.count == 4 && rows[0].previousID == rows[3].id && rows[1].previousID == rows[2].id && rows[3].previousID == nil,
                "a rollback's row names the release before the one it restored")
        #expect(rows.allSatisfy { (before...after).contains($0.createdAt) })
    }

    @Test func theThemeListMarksWhatThemesCurrentAnswers() async throws {
        try await TestServer.sqlite().test(.router) { client in try await Self.checkThemeList(client) }
    }

    static func checkThemeList(_ client: any TestClientProtocol) async throws {
        let before = Int(Date().timeIntervalSince1970)
        #expect(try await client.admin(.put, "/admin/themes/1.1.0", json: try theme("standard.json")).status == .created)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/publish").status == .ok)
        #expect(try await client.admin(.put, "/admin/themes/1.2.0", json: try theme("standard-dark.json")).status == .created)
        let after = Int(Date().timeIntervalSince1970)
        let list = try decode([Theme].self, try await client.admin(.get, "/admin/console/themes"))
        #expect(list.map(\.version) == ["1.2.0", "1.1.0"])
        #expect(list.map(\.published) == [false, true])
        #expect(list.map(\.current) == [false, true])
        #expect(list.allSatisfy { $0.major == 1 && (before...after).contains($0.createdAt) })
        #expect(list[1].sha256 == sha256Hex(try theme("standard.json")))
        #expect(try await client.admin(.post, "/admin/themes/1.2.0/publish").status == .ok)
        let published = try decode([Theme].self, try await client.admin(.get, "/admin/console/themes"))
        #expect(published.map(\.current) == [true, false])
    }

    @Test func appsAndVersionsAreListedWithSizesHashesAndUploadTimes() async throws {
        try await TestServer.sqlite().test(.router) { client in try await Self.checkAppLists(client) }
    }

    static func checkAppLists(_ client: any TestClientProtocol) async throws {
        #expect(try decode([App].self, try await client.admin(.get, "/admin/console/apps")).isEmpty)
        let before = Int(Date().timeIntervalSince1970)
        try await client.upload("cart", "1.0.0", stylesheet: "p{}")
        try await client.upload("cart", "1.10.0")
        try await client.upload("cart", "1.2.0")
        try await client.upload("about", "2.0.0")
        let after = Int(Date().timeIntervalSince1970)
        #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","arms":[{"version":"1.10.0","percent":50}]}"#).status == .ok)
        #expect(try await client.admin(.put, "/admin/apps/cart/pin", json: #"{"version":"1.2.0"}"#).status == .ok)
        let apps = try decode([App].self, try await client.admin(.get, "/admin/console/apps"))
        #expect(apps == [
            App(name: "about", release: nil, pinnedVersion: nil, versions: ["2.0.0"]),
            App(name: "cart", release: .init(stable: "1.0.0", arms: [.init(version: "1.10.0", percent: 50)], users: [:]),
                pinnedVersion: "1.2.0", versions: ["1.0.0", "1.2.0", "1.10.0"]),
        ])
        let versions = try decode([Version].self, try await client.admin(.get, "/admin/console/apps/cart/versions"))
        #expect(versions.map(\.version) == ["1.0.0", "1.2.0", "1.10.0"], "in version order")
        #expect(versions.allSatisfy { (before...after).contains($0.createdAt) }, "upload times \(versions.map(\.createdAt))")
        let bundle = "globalThis.loaded = 'cart@1.0.0';"
        #expect(versions[0].bundle == .init(sha256: sha256Hex(bundle), size: bundle.utf8.count))
        #expect(versions[0].stylesheet == .init(sha256: sha256Hex("p{}"), size: 3))
        #expect(versions[0].totalBytes == bundle.utf8.count + 3 && versions[0].assetCount == 0)
        #expect(versions[1].stylesheet == nil && versions[1].minNativeVersion == "1.0.0")
        #expect(try await client.admin(.get, "/admin/console/apps/nope/versions").status == .notFound)
        #expect(try await client.admin(.get, "/admin/console/apps/nope/releases").status == .notFound)
        #expect(try decode([ReleaseRow].self, try await client.admin(.get, "/admin/console/apps/about/releases")).isEmpty)
        #expect(try await client.admin(.get, "/admin/console/apps/Not_A_Name/versions").status == .badRequest)
    }
}

/// The audit list (docs/server.md, "Audit list") and the refused last unpublish: every admin write
/// leaves one row naming its token, in the write's transaction.
extension ConsoleRoutesTests {
    struct AuditState: Decodable, Equatable {
        var release: App.Release?
        var pinnedVersion: String?
        var published: Bool?
        var current: String?
        var sha256: String?
        var size: Int?
        var minNativeVersion: String?
        var assetCount: Int?
        var label: String?
        var access: String?
        init(release: App.Release? = nil, pinnedVersion: String? = nil, published: Bool? = nil, current: String? = nil,
             sha256: String? = nil, size: Int? = nil, minNativeVersion: String? = nil, assetCount: Int? = nil, label: String? = nil,
             access: String? = nil) {
            (self.release, self.pinnedVersion, self.published, self.current) = (release, pinnedVersion, published, current)
            (self.sha256, self.size, self.minNativeVersion, self.assetCount, self.label) = (sha256, size, minNativeVersion, assetCount, label)
            self.access = access
        }
    }

    struct AuditRow: Decodable, Equatable {
        struct Author: Decodable, Equatable {
            var tokenID: Int
            var label: String
        }
        var id: Int
        var at: Int
        var author: Author
        var action: String
        var target: String
        var before: AuditState?
        var after: AuditState?
    }

    struct AuditPage: Decodable {
        var entries: [AuditRow]
        var next: Int?
    }

    @Test func everyAdminWriteLeavesOneAuditRowNamingItsToken() async throws {
        try await TestServer.sqlite().test(.router) { client in try await Self.checkAudit(client) }
    }

    @Test func documentTokensAreAuditedToo() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let made = try await client.admin(.post, "/admin/documents/board/tokens", json: #"{"access":"read-write","label":"kiosk"}"#)
            #expect(made.status == .created)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(made.body.readableBytesView)) as? [String: Any])?["id"] as? Int)
            #expect(try await client.admin(.delete, "/admin/documents/board/tokens/\(id)").status == .noContent)
            #expect(try await client.admin(.delete, "/admin/documents/board/tokens/\(id)").status == .notFound, "gone: no second row")
            let rows = try await Self.audit(client)
            #expect(rows.map(\.action) == ["document-token.delete", "document-token.create"])
            #expect(rows.allSatisfy { $0.target == "board \(id)" && $0.author == .init(tokenID: 1, label: "initial") })
            #expect(rows[1].before == nil && rows[1].after == AuditState(label: "kiosk", access: "read-write"))
            #expect(rows[0].before == AuditState(label: "kiosk", access: "read-write") && rows[0].after == nil)
        }
    }

    @Test func unpublishingTheOnlyPublishedThemeOfAMajorIsRefused() async throws {
        try await TestServer.sqlite().test(.router) { client in try await Self.checkLastThemeRefused(client) }
    }

    @Test func theAuditListPagesNewestFirstAndRefusesBadQueries() async throws {
        try await TestServer.sqlite().test(.router) { client in
            for n in 0..<5 {
                #expect(try await client.admin(.put, "/admin/themes/1.\(n).0", json: Fixtures.theme("1.\(n).0")).status == .created)
            }
            let first = try Self.decode(AuditPage.self, try await client.admin(.get, "/admin/console/audit?limit=2"))
            #expect(first.entries.map(\.target) == ["1.4.0", "1.3.0"])
            let next = try #require(first.next)
            let second = try Self.decode(AuditPage.self, try await client.admin(.get, "/admin/console/audit?limit=2&before=\(next)"))
            #expect(second.entries.map(\.target) == ["1.2.0", "1.1.0"])
            let last = try Self.decode(AuditPage.self, try await client.admin(.get, "/admin/console/audit?limit=2&before=\(try #require(second.next))"))
            #expect(last.entries.map(\.target) == ["1.0.0"] && last.next == nil, "the last page says so")
            let all = try Self.decode(AuditPage.self, try await client.admin(.get, "/admin/console/audit"))
            #expect(all.entries.count == 5 && all.next == nil)
            for query in ["limit=0", "limit=201", "limit=x", "before=0", "before=-3", "before=1.5"] {
                #expect(try await client.admin(.get, "/admin/console/audit?\(query)").status == .badRequest, "\(query)")
            }
            #expect(try await client.get("/admin/console/audit").status == .unauthorized)
        }
    }

    static func audit(_ client: any TestClientProtocol) async throws -> [AuditRow] {
        try decode(AuditPage.self, try await client.admin(.get, "/admin/console/audit?limit=200")).entries
    }

    static func checkAudit(_ client: any TestClientProtocol) async throws {
        let start = Int(Date().timeIntervalSince1970)
        #expect(try await audit(client).isEmpty, "installing the first token at start is no admin request")
        // A second admin, so the rows can be told apart by their author.
        let made = try await client.admin(.post, "/admin/tokens", json: #"{"label":"release-manager"}"#)
        let second = try JSONSerialization.jsonObject(with: Data(made.body.readableBytesView)) as? [String: Any]
        let secondID = try #require(second?["id"] as? Int)
        let secondToken = try #require(second?["token"] as? String)

        try await client.upload("menu", "1.0.0", stylesheet: "p{}")
        let again = #"{"bundle":"globalThis.loaded = 'menu@1.0.0';","minNativeVersion":"1.0.0","stylesheet":"p{}"}"#
        #expect(try await client.admin(.put, "/admin/apps/menu/versions/1.0.0", json: again).status == .ok, "the same bytes again: no change, no row")
        try await client.upload("menu", "1.1.0")
        let rollout = #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":50}]}"#
        #expect(try await client.admin(.put, "/admin/apps/menu/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
        #expect(try await client.admin(.put, "/admin/apps/menu/release", json: rollout, token: secondToken).status == .ok)
        #expect(try await client.admin(.put, "/admin/apps/menu/pin", json: #"{"version":"1.0.0"}"#, token: secondToken).status == .ok)
        #expect(try await client.admin(.delete, "/admin/apps/menu/pin").status == .noContent)
        #expect(try await client.admin(.delete, "/admin/apps/menu/pin").status == .noContent, "no pin to lift: no change, no row")
        #expect(try await client.admin(.post, "/admin/apps/menu/rollback").status == .ok)
        #expect(try await client.admin(.put, "/admin/themes/1.1.0", json: Fixtures.theme("1.1.0")).status == .created)
        #expect(try await client.admin(.put, "/admin/themes/1.2.0", json: Fixtures.theme("1.2.0", primary: "#FF0000")).status == .created)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/publish").status == .ok)
        #expect(try await client.admin(.post, "/admin/themes/1.2.0/publish", token: secondToken).status == .ok)
        #expect(try await client.admin(.post, "/admin/themes/1.2.0/publish").status == .ok, "already published: no change, no row")
        #expect(try await client.admin(.post, "/admin/themes/1.2.0/unpublish").status == .ok)
        // Refused writes change nothing and leave no row.
        #expect(try await client.admin(.put, "/admin/apps/menu/pin", json: #"{"version":"9.9.9"}"#).status == .unprocessableContent)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/unpublish").status == .conflict)
        #expect(try await client.admin(.delete, "/admin/tokens/\(secondID)").status == .noContent)
        let end = Int(Date().timeIntervalSince1970)

        let rows = try await audit(client)
        let admin = AuditRow.Author(tokenID: 1, label: "initial")
        let manager = AuditRow.Author(tokenID: secondID, label: "release-manager")
        let stable = App.Release(stable: "1.0.0", arms: [], users: [:])
        let fifty = App.Release(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 50)], users: [:])
        let bundle = "globalThis.loaded = 'menu@1.0.0';"
        let newestFirst: [(AuditRow.Author, String, String, AuditState?, AuditState?)] = [
            (admin, "token.delete", "\(secondID)", AuditState(label: "release-manager"), nil),
            (admin, "theme.unpublish", "1.2.0", AuditState(published: true, current: "1.2.0"), AuditState(published: false, current: "1.1.0")),
            (manager, "theme.publish", "1.2.0", AuditState(published: false, current: "1.1.0"), AuditState(published: true, current: "1.2.0")),
            (admin, "theme.publish", "1.1.0", AuditState(published: false), AuditState(published: true, current: "1.1.0")),
            (admin, "theme.upload", "1.2.0", nil, AuditState(published: false, sha256: sha256Hex(Fixtures.theme("1.2.0", primary: "#FF0000")),
                                                              size: Fixtures.theme("1.2.0", primary: "#FF0000").utf8.count)),
            (admin, "theme.upload", "1.1.0", nil, AuditState(published: false, sha256: sha256Hex(Fixtures.theme("1.1.0")),
                                                              size: Fixtures.theme("1.1.0").utf8.count)),
            (admin, "release.rollback", "menu", AuditState(release: fifty), AuditState(release: stable)),
            (admin, "pin.lift", "menu", AuditState(pinnedVersion: "1.0.0"), AuditState()),
            (manager, "pin.set", "menu", AuditState(), AuditState(pinnedVersion: "1.0.0")),
            (manager, "release.set", "menu", AuditState(release: stable), AuditState(release: fifty)),
            (admin, "release.set", "menu", AuditState(), AuditState(release: stable)),
            (admin, "version.upload", "menu 1.1.0", nil, AuditState(sha256: sha256Hex("globalThis.loaded = 'menu@1.1.0';"),
                                                                     size: bundle.utf8.count, minNativeVersion: "1.0.0", assetCount: 0)),
            (admin, "version.upload", "menu 1.0.0", nil, AuditState(sha256: sha256Hex(bundle), size: bundle.utf8.count + 3,
                                                                     minNativeVersion: "1.0.0", assetCount: 0)),
            (admin, "token.create", "\(secondID)", nil, AuditState(label: "release-manager")),
        ]
        #expect(rows.count == newestFirst.count, "\(rows.map(\.action))")
        for (row, expected) in zip(rows, newestFirst) {
            #expect(row.author == expected.0, "\(row.action) \(row.target)")
            #expect(row.action == expected.1 && row.target == expected.2, "\(row.action) \(row.target)")
            #expect(row.before == expected.3, "\(row.action) \(row.target) before")
            #expect(row.after == expected.4, "\(row.action) \(row.target) after")
            #expect((start...end).contains(row.at))
        }
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.id > $1.id }, "newest first")
        #expect(rows.first?.author == admin, "a deleted token's rows keep its label")
    }

    static func checkLastThemeRefused(_ client: any TestClientProtocol) async throws {
        #expect(try await client.admin(.put, "/admin/themes/1.1.0", json: Fixtures.theme("1.1.0")).status == .created)
        #expect(try await client.admin(.put, "/admin/themes/2.0.0", json: Fixtures.theme("2.0.0")).status == .created)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/publish").status == .ok)
        #expect(try await client.admin(.post, "/admin/themes/2.0.0/publish").status == .ok)
        let before = try await client.get("/themes/current?nativeVersion=1.0.0")
        let refused = try await client.admin(.post, "/admin/themes/1.1.0/unpublish")
        #expect(refused.status == .conflict)
        let body = String(buffer: refused.body)
        #expect(body.contains(#""error":"last-published-theme""#) && body.contains("only published theme of major version 1"), "\(body)")
        // Nothing changed: shells of major 1 still get 1.1.0 with the same ETag; a published 2.x theme does not count.
        let after = try await client.get("/themes/current?nativeVersion=1.0.0")
        #expect(after.status == .ok && after.headers[.eTag] == before.headers[.eTag])
        // An unpublished theme of the same major does not help either; once another is published, the rollback goes through.
        #expect(try await client.admin(.put, "/admin/themes/1.0.0", json: Fixtures.theme("1.0.0")).status == .created)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/unpublish").status == .conflict)
        #expect(try await client.admin(.post, "/admin/themes/1.0.0/publish").status == .ok)
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/unpublish").status == .ok)
        let rolledBack = try await client.get("/themes/current?nativeVersion=1.0.0")
        #expect(String(buffer: rolledBack.body).contains(#""version": "1.0.0""#), "the rollback went to 1.0.0")
        // Unpublishing what is not published is no change, and never refused.
        #expect(try await client.admin(.post, "/admin/themes/1.1.0/unpublish").status == .ok)
        #expect(try await client.admin(.post, "/admin/themes/1.0.0/unpublish").status == .conflict)
        #expect(try await client.admin(.post, "/admin/themes/9.9.9/unpublish").status == .notFound)
    }
}

/// The console's storage reads on PostgreSQL (its own queries; `scripts/with-postgres.sh`).
@Suite(.tags(.integration), .enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"))
struct ConsolePostgresTests {
    @Test func listsOnPostgres() async throws {
        try await TestServer.postgres(url: try await PostgresTestDatabase.fresh()).test(.router) { client in
            try await ConsoleRoutesTests.checkAppLists(client)
            try await ConsoleRoutesTests.checkThemeList(client)
            try await ConsoleRoutesTests.checkReleaseHistory(client)
        }
    }

    @Test func auditRowsAndTheRefusedUnpublishOnPostgres() async throws {
        try await TestServer.postgres(url: try await PostgresTestDatabase.fresh()).test(.router) { client in
            try await ConsoleRoutesTests.checkAudit(client)
        }
        try await TestServer.postgres(url: try await PostgresTestDatabase.fresh()).test(.router) { client in
            try await ConsoleRoutesTests.checkLastThemeRefused(client)
        }
    }
}
