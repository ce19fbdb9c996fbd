import CapabilityBridge
import Foundation
import JSEngine
import StyleTokens
import Testing
import WebKitGTKPage

/// The capability bridge and the theme in a real WebKitGTK page (docs/webview.md).
extension WebKitGTKPageTests {
@Suite("Web view and the bridge")
struct BridgeTests {
    /// A page with the bridge attached to a headless shell, loaded with `html`.
    static func bridgedPage(_ name: String, host: BridgeHost, shell: HeadlessShell, grants: BridgeGrants, html: String? = nil) async throws -> WebViewPage {
        var configuration = WebViewPage.Configuration(name: name)
        if let html { configuration.html = html }
        let page = try await WebViewPage.make(configuration)
        try await host.attach(page, app: MicroApp(id: name, grants: grants), shell: shell)
        try await page.load()
        return page
    }

    /// `invokeNative(action, payload)` in the page: `{"ok":true,"data":…}` or `{"ok":false,"code":…,"message":…}`.
    static func invoke(_ page: WebViewPage, _ action: String, _ payload: JSONValue = [:]) async throws -> JSONValue {
        try await page.callAsyncFunction("""
            return invokeNative(action, JSON.parse(payload), { timeout: 10000 })
              .then(d => ({ ok: true, data: d }), e => ({ ok: false, code: e.code, message: e.message }));
            """, arguments: ["action": action, "payload": payload.jsonText()])
    }

    @Test func invokeNativeReachesFrameworkAndBusinessHandlers() async throws {
        let host = BridgeHost()
        let initialData: JSONValue = ["apiBaseURL": "https://api.example.com", "userId": "u-42", "locale": "en-US"]
        let shell = HeadlessShell(initialData: initialData, root: .web(url: "https://shop.example.com/", title: "Shop"))
        host.register("payments.charge", payload: JSONValue.self, result: JSONValue.self) { _, _ in
            Issue.record("an ungranted handler ran")
            return .null
        }
        host.register("cart.quote", payload: JSONValue.self, result: JSONValue.self) { payload, context in
            ["sku": payload["sku"] ?? .null, "price": 4.25, "page": .string(context.pageID)]
        }
        let page = try await Self.bridgedPage("shop", host: host, shell: shell, grants: .framework(plus: ["cart.quote"]))

        // Framework handlers, acting on the shell.
        #expect(try await Self.invoke(page, "getInitialData") == ["ok": true, "data": initialData])
        let alert = try await Self.invoke(page, "showAlert", ["title": "Cart", "message": "Added 1 item", "buttons": ["OK", "Undo"]])
        #expect(alert == ["ok": true, "data": ["index": 0]])
        #expect(shell.state.alerts == [ShellAlert(title: "Cart", message: "Added 1 item", buttons: ["OK", "Undo"])])
        // A business handler, granted.
        #expect(try await Self.invoke(page, "cart.quote", ["sku": "A1"]) == ["ok": true, "data": ["sku": "A1", "price": 4.25, "page": "shop"]])
        // Registered but not granted to this app: refused, and the handler never runs.
        #expect(try await Self.invoke(page, "payments.charge", ["amount": 10])["code"] == "refused")
        await page.close()
    }

    /// A document whose button takes its corner radius and colour from the theme's variables.
    static let themedHTML = """
        <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
        <button id="buy" style="border-radius: var(--primary-button-corner-radius); background-color: var(--primary-button-background-color)">Buy</button>
        </body></html>
        """
    /// The button's computed radius and background colour.
    static let buttonStyle = "(() => { const s = getComputedStyle(document.getElementById('buy')); return [s.borderTopLeftRadius, s.backgroundColor]; })()"

    @MainActor
    @Test func themeVariablesReachTheRealDOMAndAreReplaced() async throws {
        let standard = try WebViewFixtures.file("examples/themes/standard.json")
        let host = BridgeHost()
        let page = try await Self.bridgedPage("themed", host: host, shell: HeadlessShell(), grants: .framework(), html: Self.themedHTML)
        let service = try ThemeService(appMajorVersion: 1, bundledDefault: Data(standard.utf8))
        _ = await service.attach(BridgePageStyleSheet(host: host, pageID: "themed"))

        #expect(try await page.evaluate(Self.buttonStyle) == ["12px", "rgb(0, 122, 255)"])

        // A newer theme replaces the one <style>: the colour changes, the radius stays.
        let red = standard.replacingOccurrences(of: "\"1.1.0\"", with: "\"1.3.0\"")
            .replacingOccurrences(of: "\"primary\": \"#007AFF\"", with: "\"primary\": \"#FF3B30\"")
        let outcome = await service.offer(Data(red.utf8), from: .source)
        #expect(service.lastFailure == nil, "\(outcome)")
        #expect(try await page.evaluate(Self.buttonStyle) == ["12px", "rgb(255, 59, 48)"])
        #expect(try await page.evaluate("[...document.querySelectorAll('style')].map(s => s.id)") == [.string(ThemeCSS.styleSheetID)])
        await page.close()
    }

    /// The page itself as the theme's target: the document has the sheet at once, and every
    /// reload gets it again; a `<style>` written through the bridge goes with the document it
    /// was written into. A reload loads the configured document, not an empty `about:blank`.
    @MainActor
    @Test func aThemeOnThePageItselfSurvivesAReload() async throws {
        let standard = try WebViewFixtures.file("examples/themes/standard.json")
        let host = BridgeHost()
        let page = try await Self.bridgedPage("reloaded", host: host, shell: HeadlessShell(), grants: .framework(), html: Self.themedHTML)
        let service = try ThemeService(appMajorVersion: 1, bundledDefault: Data(standard.utf8))
        _ = await service.attach(page)
        let variable = "getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim()"
        #expect(try await page.evaluate(Self.buttonStyle) == ["12px", "rgb(0, 122, 255)"])
        #expect(try await page.evaluate(variable) == "#007aff")

        let red = standard.replacingOccurrences(of: "\"1.1.0\"", with: "\"1.3.0\"")
            .replacingOccurrences(of: "\"primary\": \"#007AFF\"", with: "\"primary\": \"#FF3B30\"")
        let outcome = await service.offer(Data(red.utf8), from: .source)
        #expect(service.lastFailure == nil, "\(outcome)")
        #expect(try await page.evaluate(Self.buttonStyle) == ["12px", "rgb(255, 59, 48)"])

        // Beside it, a sheet through the bridge: the document's own <style>.
        try await BridgePageStyleSheet(host: host, pageID: "reloaded").replaceStyleSheet(id: "bridged", css: ":root { --bridged: 1px; }")
        #expect(try await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bridged').trim()") == "1px")

        try await page.reload()
        // The configured document again, not an empty about:blank.
        #expect(try await page.evaluate("document.getElementById('buy')?.textContent ?? null") == "Buy")
        print("STYLE", try await page.evaluate(Self.buttonStyle).jsonText(), try await page.evaluate(variable).jsonText())
        #expect(try await page.evaluate(Self.buttonStyle) == ["12px", "rgb(255, 59, 48)"])
        #expect(try await page.evaluate(variable) == "#ff3b30")
        #expect(try await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bridged').trim()") == "")
        #expect(try await page.evaluate("[...document.querySelectorAll('style')].map(s => s.id)") == [.string(ThemeCSS.styleSheetID)])

        await page.close()
        await #expect(throws: WebViewError.pageGone(pageID: "reloaded", reason: .closed)) {
            try await page.replaceStyleSheet(id: ThemeCSS.styleSheetID, css: ":root {}")
        }
    }
}
}
