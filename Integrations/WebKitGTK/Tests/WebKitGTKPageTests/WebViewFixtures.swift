import Foundation
import JSEngine
import StateHub
import Testing
import WebKitGTKPage

/// What the web view tests share: the repository's files, a page set up as `HostedPage` sets
/// up an engine, and a wait that follows the hub instead of polling.
enum WebViewFixtures {
    /// The repository root, from this file's path (Integrations/WebKitGTK/Tests/WebKitGTKPageTests/…).
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url
    }()

    /// A file of the repository, as text.
    static func file(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// `js/examples/<name>.js` as a bundle.
    static func example(_ name: String) throws -> WebViewPage.Bundle {
        WebViewPage.Bundle(path: "\(name).js", source: try file("js/examples/\(name).js"))
    }

    /// A web view attached to `hub` before its document loads, as `HostedPage` orders it.
    static func loadedPage(_ hub: GlobalStateHub, _ configuration: WebViewPage.Configuration) async throws -> WebViewPage {
        let page = try await WebViewPage.make(configuration)
        try await hub.attach(page)
        try await page.load()
        return page
    }
}

/// Waits until `condition` holds of the hub's mirror of `store` (`GlobalStateHub.mirror(of:becomes:within:)`);
/// false if it has not after 20 s, so a broken page fails the test instead of hanging it.
func mirror(of hub: GlobalStateHub, _ store: String, becomes condition: @escaping @Sendable (JSONValue?) -> Bool) async -> Bool {
    await hub.mirror(of: store, becomes: condition, within: .seconds(20))
}

/// Every web view test, one at a time: the crash test tells its page's web process from the
/// others by the processes that appear while it loads, and the machine has two cores.
@Suite("WebKitGTK page", .serialized)
struct WebKitGTKPageTests {}
