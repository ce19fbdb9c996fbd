import CapabilityBridge
import JSEngine
import Testing

@Suite("page-shim.js: the minimal page", .tags(.engine))
struct PageShimTests {
    @Test func oneReplaceableStyleSheetPerID() async throws {
        let h = try await BridgeHarness.make()
        try await h.host.replaceStyleSheet(id: "statehub-theme", css: ":root{--c:red}", onPage: h.pageID)
        try await h.host.replaceStyleSheet(id: "statehub-theme", css: ":root{--c:\"blue\"}</style>", onPage: h.pageID)
        try await h.host.replaceStyleSheet(id: "other", css: "p{}", onPage: h.pageID)
        let sheets = try await h.engine.evaluate("StateHubPage.styleSheets()")
        #expect(sheets == [["id": "statehub-theme", "css": ":root{--c:\"blue\"}</style>"], ["id": "other", "css": "p{}"]])
        #expect(try await h.engine.evaluate("document.getElementById('statehub-theme').textContent") == ":root{--c:\"blue\"}</style>")
        #expect(try await h.engine.evaluate("document.head.children.length") == 2)
    }

    @Test func styleSheetFailuresAreReported() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("const d = document.createElement('div'); d.id = 'taken'; document.body.appendChild(d); 0")
        await #expect(throws: BridgeHostError.styleSheetNotApplied(pageID: h.pageID, reason: "replaceStyleSheet: element #taken is not a <style>")) {
            try await h.host.replaceStyleSheet(id: "taken", css: "x", onPage: h.pageID)
        }
        await #expect(throws: BridgeHostError.unknownPage("ghost")) {
            try await h.host.replaceStyleSheet(id: "x", css: "x", onPage: "ghost")
        }
    }

    @Test func withoutTheShimTheStyleSheetCallFails() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "bare"))
        let host = BridgeHost()
        try await host.attach(engine, app: MicroApp(id: "bare", grants: .all), shell: HeadlessShell())
        await #expect(throws: BridgeHostError.self) {
            try await host.replaceStyleSheet(id: "x", css: "x", onPage: "bare")
        }
    }

    @Test func documentTitleAndLocationDoNotNavigate() async throws {
        let h = try await BridgeHarness.make()
        let result = try await h.engine.evaluate("""
        document.title = 'A'; document.title = 'A'; document.title = 'B';
        StateHubPage.setURL('https://shop.example.com/');
        location.href = 'https://elsewhere.example/';
        [document.title, location.href, String(location)]
        """)
        #expect(result == ["B", "https://shop.example.com/", "https://shop.example.com/"])
        await h.waitForShell("the document title B in the shell") { $0.header.documentTitle == "B" }
        #expect(h.bridgeRecords.filter { $0.type == "title" }.count == 2, "setting the same title again posts nothing")
    }
}
