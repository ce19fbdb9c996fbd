import CapabilityBridge
import Foundation
import JSEngine
import Testing
@testable import StyleTokens

/// The theme reaching a real page in the engine through the capability bridge.
@Suite("Theme injection into a page", .tags(.engine))
struct PageInjectionTests {
    @MainActor
    @Test func applyingThemesReplacesTheOneStyleSheet() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "themed"))
        let host = BridgeHost()
        try await host.attach(engine, app: MicroApp(id: "themed", grants: .framework()), shell: HeadlessShell())
        for (path, source) in try BridgeScripts.engineScripts() {
            try await engine.execute(source, sourceURL: path)
        }
        let service = try ThemeService(appMajorVersion: 1)
        _ = await service.attach(BridgePageStyleSheet(host: host, pageID: "themed"))
        let first = try await engine.evaluate("StateHubPage.styleSheets()")
        #expect(first.arrayValue?.count == 1)
        #expect(first[0]?["css"]?.stringValue == service.styleSheet)

        let outcome = await service.offer(Data(ThemeFixtures.theme(version: "1.2.0", primary: "#FF0000").utf8), from: .source)
        #expect(service.lastFailure == nil, "\(outcome)")
        let sheets = try await engine.evaluate("StateHubPage.styleSheets()")
        #expect(sheets.arrayValue?.count == 1) // replaced, not stacked
        #expect(sheets[0]?["id"] == "statehub-theme")
        #expect(sheets[0]?["css"]?.stringValue?.contains("--color-primary: #ff0000;") == true)
        #expect(try await engine.evaluate("document.getElementById('statehub-theme').textContent.includes('#ff0000')") == true)
    }
}
