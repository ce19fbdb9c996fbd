import CapabilityBridge
import Clocks
import JSEngine
import JSSources
import StateHubTestSupport
import Testing

@Suite("Framework handlers, end to end through the engine", .tags(.engine))
struct FrameworkHandlerTests {
    @Test func getInitialDataAnswersTheShellsData() async throws {
        let h = try await BridgeHarness.make()
        let reply = try await h.invoke("getInitialData")
        #expect(reply["ok"] == true)
        #expect(reply["data"] == BridgeHarness.initialData)
        #expect(h.shell.state.initialDataRequests == 1)
    }

    @Test func showAlertRecordsTheAlertAndAnswersTheButton() async throws {
        let h = try await BridgeHarness.make()
        let reply = try await h.invoke("showAlert", ["title": "Cart", "message": "Added 1 item", "buttons": ["OK", "Undo"]])
        #expect(reply["data"] == ["index": 0])
        let defaulted = try await h.invoke("showAlert", ["message": "Plain"])
        #expect(defaulted["ok"] == true)
        #expect(h.shell.state.alerts == [
            ShellAlert(title: "Cart", message: "Added 1 item", buttons: ["OK", "Undo"]),
            ShellAlert(title: nil, message: "Plain", buttons: ["OK"]),
        ])
    }

    @Test func loadingStateFollowsDidFinishAndDidFail() async throws {
        let h = try await BridgeHarness.make()
        #expect(h.shell.state.loading == .loading)
        #expect(try await h.invoke("didFinishLoading")["data"] == .null)
        #expect(h.shell.state.loading == .finished)
        #expect(try await h.invoke("didFailLoading", ["message": "network down", "code": "offline"])["ok"] == true)
        #expect(h.shell.state.loading == .failed(message: "network down", code: "offline"))
    }

    @Test func gotoWebviewAndGotoNativePushPages() async throws {
        let h = try await BridgeHarness.make()
        #expect(try await h.invoke("gotoWebview", ["url": "https://shop.example.com/cart", "title": "Cart"])["ok"] == true)
        #expect(try await h.invoke("gotoWebview", ["url": "https://img.cdn.example.com/x"])["ok"] == true)
        #expect(try await h.invoke("gotoNative", ["page": "settings", "params": ["tab": "privacy", "a": 1]])["ok"] == true)
        #expect(h.shell.state.navigationStack == [
            .web(url: "https://shop.example.com/", title: "Shop"),
            .web(url: "https://shop.example.com/cart", title: "Cart"),
            .web(url: "https://img.cdn.example.com/x", title: nil),
            .native(page: "settings", params: ["tab": "privacy", "a": 1]),
        ])
    }

    @Test func doActionBackReloadShare() async throws {
        let h = try await BridgeHarness.make()
        _ = try await h.invoke("gotoNative", ["page": "settings"])
        #expect(h.shell.state.navigationStack.count == 2)
        #expect(try await h.invoke("doAction", ["action": "back"])["ok"] == true)
        #expect(try await h.invoke("doAction", ["action": "back"])["ok"] == true)  // root stays
        _ = try await h.invoke("didFinishLoading")
        #expect(try await h.invoke("doAction", ["action": "reload"])["ok"] == true)
        #expect(try await h.invoke("doAction", ["action": "share", "text": "Look", "url": "https://shop.example.com/p/1"])["ok"] == true)
        let state = h.shell.state
        #expect(state.navigationStack == [.web(url: "https://shop.example.com/", title: "Shop")])
        #expect(state.actions == [.back, .back, .reload, .share(text: "Look", url: "https://shop.example.com/p/1")])
        #expect(state.loading == .loading)
    }

    @Test func configNativeReplacesRightItemsAndTapsComeBackAsEvents() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("""
        globalThis.taps = [];
        onNative('cartNavTapped', d => { taps.push(['cart', d]); testArrivals.arrived(); });
        onNative('helpTapped', d => { taps.push(['help', d]); testArrivals.arrived(); });
        0
        """)
        _ = try await h.invoke("configNative", ["configs": [["type": "nav_item_right", "title": "Old", "action": "old"]]])
        let reply = try await h.invoke("configNative", ["configs": [
            ["type": "nav_item_right", "title": "Cart", "icon_url": "https://cdn.example.com/cart.png",
             "action": "cartNavTapped", "action_parameters": ["from": "header", "2": 0]],
            ["type": "nav_item_right", "icon_url": "https://cdn.example.com/help.png", "action": "helpTapped"],
        ]])
        #expect(reply["ok"] == true)
        let items = h.shell.state.header.rightItems
        #expect(items.map(\.action) == ["cartNavTapped", "helpTapped"])
        #expect(items[0].title == "Cart" && items[0].iconURL == "https://cdn.example.com/cart.png")
        #expect(items[1].parameters == [:])
        #expect(h.host.rightItems(ofPage: h.pageID) == items)

        try h.shell.tapRightItem(at: 0)
        try h.host.tapRightItem(at: 1, onPage: h.pageID)
        try await h.waitForPage("both taps in the page", "taps.length === 2")
        // Key order of action_parameters is JavaScript's own and kept.
        #expect(try await h.engine.evaluate("JSON.stringify(taps)") == #"[["cart",{"2":0,"from":"header"}],["help",{}]]"#)
        #expect(throws: HeadlessShellError.noRightItem(index: 5, count: 2)) { try h.shell.tapRightItem(at: 5) }
        #expect(throws: BridgeHostError.noRightItem(pageID: h.pageID, index: 2, count: 2)) { try h.host.tapRightItem(at: 2, onPage: h.pageID) }
    }

    @Test func headerTitleFollowsDocumentTitleUnlessPinned() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("document.title = 'Shop home'")
        await h.waitForShell("the header title Shop home") { $0.header.title == "Shop home" }
        _ = try await h.invoke("configNative", ["configs": [["type": "title", "title": "My Cart"]]])
        try await h.engine.evaluate("document.title = 'Ignored while pinned'")
        await h.waitForShell("the document title while pinned") { $0.header.documentTitle == "Ignored while pinned" }
        #expect(h.shell.state.header.title == "My Cart")
        _ = try await h.invoke("configNative", ["configs": [["type": "title", "title": .null]]])
        #expect(h.shell.state.header.title == "Ignored while pinned")
        #expect(h.shell.state.header.pinnedTitle == nil)
        #expect(try await h.engine.evaluate("document.title") == "Ignored while pinned")
    }

    @Test func shellStateIsPrintableJSON() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate(JSSources.file("examples/micro-app.js") ?? "throw new Error('micro-app.js missing')", sourceURL: "examples/micro-app.js")
        #expect(try await h.engine.evaluateAndAwait("microApp.ready") == "loaded")
        let json = h.shell.state.jsonValue
        #expect(json["loading"] == ["state": "finished"])
        #expect(json["header"]?["title"] == "Shop")
        #expect(json["header"]?["rightItems"]?[0]?["action"] == "cartNavTapped")
        #expect(json["alerts"]?.arrayValue?.count == 1)
        try h.shell.tapRightItem(at: 0)
        await h.waitForShell("the cart pushed") { $0.navigationStack.count == 2 }
        #expect(h.shell.state.navigationStack.last == .web(url: "https://shop.example.com/cart", title: "Cart"))
    }
}

@Suite("Running a micro-app as the CLI does", .tags(.engine))
struct MicroAppRunTests {
    /// The wait starts before the page runs, and quiet is measured on a test clock from the
    /// page's last call: the chain's calls cannot leave a gap it takes for quiet, however slowly
    /// the machine runs them.
    @Test func waitUntilQuietCoversChainedCalls() async throws {
        let clock = TestClock()
        let h = try await BridgeHarness.make(configuration: BridgeConfiguration(
            urlAllowlist: URLAllowlist(hosts: ["shop.example.com"]), clock: clock))
        let quiet = Task { await h.host.waitUntilQuiet(quietPeriod: .milliseconds(250), timeout: .seconds(30)) }
        try await h.engine.evaluate(JSSources.file("examples/micro-app.js") ?? "throw new Error('micro-app.js missing')", sourceURL: "examples/micro-app.js")
        #expect(try await h.engine.evaluateAndAwait("microApp.ready") == "loaded", "the chain of calls did not end")
        await clock.advance(by: .milliseconds(250))
        #expect(await quiet.value)
        #expect(h.host.callsInFlight == 0)
        #expect(h.shell.state.loading == .finished, "every chained call of the micro-app was answered")
        #expect(h.shell.state.header.rightItems.count == 1)
    }

    /// Quiet is a whole `quietPeriod` of the bridge's clock after the last call started or
    /// answered: a call late in one period starts the period again.
    @Test func quietNeedsAWholePeriodAfterTheLastCall() async throws {
        let clock = TestClock()
        let h = try await BridgeHarness.make(configuration: BridgeConfiguration(clock: clock))
        let start = clock.now
        _ = try await h.invoke("getInitialData")
        let quiet = Task {
            let quiet = await h.host.waitUntilQuiet(quietPeriod: .milliseconds(250), timeout: .seconds(30))
            return (quiet, start.duration(to: clock.now))
        }
        await clock.advance(by: .milliseconds(249))
        _ = try await h.invoke("getInitialData")
        await clock.advance(by: .milliseconds(1))
        await clock.advance(by: .milliseconds(248))
        await clock.advance(by: .milliseconds(1))
        let (wasQuiet, at) = await quiet.value
        #expect(wasQuiet)
        #expect(at >= .milliseconds(499), "quiet \(at) after the start, before a whole period after the call at 249 ms")
    }
}
