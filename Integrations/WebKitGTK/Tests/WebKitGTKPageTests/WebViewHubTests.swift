import JSEngine
import StateHub
import Testing
import WebKitGTKPage

/// The hub mirroring stores from a real WebKitGTK page (docs/webview.md).
extension WebKitGTKPageTests {
@Suite("Web view and the hub")
struct HubTests {
    @Test func mirrorsTheExampleStoresAndDispatches() async throws {
        let hub = GlobalStateHub()
        let page = try await WebViewFixtures.loadedPage(hub, .init(name: "shop", bundles: [
            try WebViewFixtures.example("user"), try WebViewFixtures.example("cart"),
        ]))
        #expect(await mirror(of: hub, "cart") { $0 == ["items": []] })
        #expect(await mirror(of: hub, "user") { $0 == ["id": .null, "name": "", "loggedIn": false, "roles": []] })

        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])
        #expect(hub.state(of: "cart") == ["items": [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]]])
        let order = try await hub.dispatch(store: "cart", action: "checkout")
        #expect(order["count"] == 2)
        #expect(order["total"] == 3)
        #expect(hub.state(of: "cart") == ["items": []])
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "cart", action: "checkout") }

        try await hub.dispatch(store: "user", action: "login", args: ["Ana Lima"])
        #expect(hub.state(of: "user") == ["id": "u-ana-lima", "name": "Ana Lima", "loggedIn": true, "roles": ["user"]])
        // The page's own state is what the mirror says.
        #expect(try await page.evaluate("getActivePinia().state.value.user.name") == "Ana Lima")
        await page.close()
    }
}
}
