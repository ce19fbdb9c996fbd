import Foundation
import StateHubTestSupport
import Testing

/// docs/server.md's asset recipe, `new URL('img/logo.png', document.currentScript.src)`, in the
/// engine: `statehub run --server` against a real `statehub serve` gives the delivered bundle's
/// top level its file URL in Delivery's versioned folder, where the asset lies.
@Suite(.tags(.integration)) struct DeliveredScriptURLTests {
    static let bundle = """
        var logo = new URL('img/logo.png', document.currentScript.src).href;
        var useAssets = defineStore('assets', {
          state: function () { return { logo: logo, after: '' }; },
          actions: { check: function () { this.after = typeof document === 'undefined' ? 'no document' : String(document.currentScript); } }
        });
        if (!getActivePinia()) setActivePinia(createPinia());
        useAssets();
        """

    @Test func theAssetRecipeResolvesBesideTheDeliveredBundle() async throws {
        let server = try ServeCommandTests.ServeProcess()
        defer {
            _ = server.stop()
            try? FileManager.default.removeItem(at: server.folder)
        }
        let logo = Data((0..<64).map { UInt8($0) })
        let upload: [String: Any] = ["bundle": Self.bundle, "minNativeVersion": "1.0.0",
                                     "assets": [["path": "img/logo.png", "data": logo.base64EncodedString()]]]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: upload), as: UTF8.self)
        #expect(try await server.request("PUT", "/admin/apps/cart/versions/1.0.0", body: body, admin: true).status == 201)
        #expect(try await server.request("PUT", "/admin/apps/cart/release", body: #"{"stable":"1.0.0"}"#, admin: true).status == 200)

        let cache = server.folder.appendingPathComponent("apps")
        let run = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", "u1",
                                          "--app-cache", cache.path, "--dispatch", "assets.check()", "--json"])
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let stores = try #require(report["stores"] as? [String: Any], "\(run.stdout)")
        let assets = try #require(stores["assets"] as? [String: Any], "\(run.stdout)")
        let href = try #require(assets["logo"] as? String)
        let url = try #require(URL(string: href))
        #expect(url.isFileURL, "\(href)")
        #expect(url.path.hasPrefix(cache.resolvingSymlinksInPath().path) || url.path.hasPrefix(cache.path), "\(href)")
        #expect(FileManager.default.contents(atPath: url.path) == logo, "no delivered asset at \(href)")
        // After the top level (a later dispatch) `currentScript` is gone again, as in a browser.
        #expect(["null", "no document"].contains(assets["after"] as? String ?? ""), "\(assets)")
    }
}
