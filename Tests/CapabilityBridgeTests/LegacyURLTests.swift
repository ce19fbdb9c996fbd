import CapabilityBridge
import Clocks
import JSEngine
import Testing

@Suite("Legacy URL-scheme transport", .tags(.engine))
struct LegacyURLTests {
    @Test func parsesAStrictURL() throws {
        let request = try LegacyURLRequest.parse(
            "jsbridge://showAlert?params=%7B%22message%22%3A%22Hi%20%2B%20%C3%A9%22%7D&callback=cb_1700000000_17", scheme: "jsbridge")
        #expect(request == LegacyURLRequest(api: "showAlert", params: ["message": "Hi + é"], callback: "cb_1700000000_17"))
        #expect(try LegacyURLRequest.parse("JSBridge://didFinishLoading", scheme: "jsbridge")
                == LegacyURLRequest(api: "didFinishLoading", params: [:], callback: nil))
        #expect(try LegacyURLRequest.parse("myapp://x_1?callback=$cb", scheme: "MyApp").callback == "$cb")
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        var url: String
        var callback: String?
        var reason: String
        var testDescription: String { url }
    }

    static let rejected: [Rejected] = [
        Rejected(url: "https://showAlert?callback=cb", callback: "cb", reason: "scheme https is not the bridge scheme jsbridge"),
        Rejected(url: "jsbridge://?callback=cb", callback: "cb", reason: "the api (action name) is empty"),
        Rejected(url: "jsbridge://show/alert?callback=cb", callback: "cb", reason: "api \"show/alert\" must be [A-Za-z0-9_]+ (no user, port or path)"),
        Rejected(url: "jsbridge://u@show?callback=cb", callback: "cb", reason: "api \"u@show\" must be [A-Za-z0-9_]+ (no user, port or path)"),
        Rejected(url: "jsbridge://show:80?callback=cb", callback: "cb", reason: "api \"show:80\" must be [A-Za-z0-9_]+ (no user, port or path)"),
        Rejected(url: "jsbridge://show?callback=cb#frag", callback: "cb", reason: "a bridge URL has no fragment"),
        Rejected(url: "jsbridge://show?callback=cb&x=1", callback: "cb", reason: "unknown query item \"x\" (only params and callback)"),
        Rejected(url: "jsbridge://show?params=%7B%7D&params=%7B%7D&callback=cb", callback: "cb", reason: "params given more than once"),
        Rejected(url: "jsbridge://show?params=%5B1%5D&callback=cb", callback: "cb", reason: "params must be a JSON object"),
        Rejected(url: "jsbridge://show?params=%7Bx&callback=cb", callback: "cb", reason: "params is not valid JSON: invalid JSON at line 1, column 2 (byte 1): expected a key in double quotes"),
        Rejected(url: "jsbridge://show?params=%ZZ&callback=cb", callback: "cb", reason: "params is not valid percent-encoded UTF-8"),
        Rejected(url: "jsbridge://show?params&callback=cb", callback: "cb", reason: "query item \"params\" is not name=value"),
        Rejected(url: "jsbridge://show?callback=a.b", callback: nil, reason: "callback must match ^[A-Za-z_$][A-Za-z0-9_$]*$"),
        Rejected(url: "jsbridge://show?callback=cb&callback=cb", callback: nil, reason: "callback given more than once"),
    ]

    @Test(arguments: rejected)
    func rejectsAnythingElse(_ c: Rejected) {
        #expect(throws: LegacyURLParseError(callback: c.callback, reason: c.reason)) {
            try LegacyURLRequest.parse(c.url, scheme: "jsbridge")
        }
    }

    @Test func locationHrefReachesTheSameHandlersAndAnswersAnObject() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("""
        globalThis.answers = [];
        window.cb_1 = function (r) { answers.push(['cb_1', typeof r, r]); testArrivals.arrived(); };
        window.cb_2 = function (r) { answers.push(['cb_2', typeof r, r]); testArrivals.arrived(); };
        location.href = 'jsbridge://showAlert?params=' + encodeURIComponent(JSON.stringify({ message: 'Hi "you"' })) + '&callback=cb_1';
        document.createElement('iframe').src = 'jsbridge://getInitialData?callback=cb_2';
        0
        """)
        try await h.waitForPage("both legacy answers", "answers.length === 2")
        let answers = try await h.engine.evaluate("answers.sort((a, b) => a[0] < b[0] ? -1 : 1)")  // async handlers: any order
        #expect(answers[0] == ["cb_1", "object", ["data": ["index": 0], "err": 0, "msg": "ok"]])
        #expect(answers[1]?[2]?["data"] == BridgeHarness.initialData)
        #expect(h.shell.state.alerts.map(\.message) == [#"Hi "you""#])
        #expect(try await h.engine.evaluate("location.href") == "about:blank", "the page is not navigated")
    }

    @Test func failuresCarryErrNumbersAndTheSameSecurity() async throws {
        let h = try await BridgeHarness.make(grants: .framework(plus: ["boom"]), configuration: BridgeConfiguration(
            maxRequestBytes: 512, urlAllowlist: URLAllowlist(hosts: ["shop.example.com"]), clock: TestClock()))
        h.host.register("boom", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in throw BridgeError(.handlerFailed, "boom: exploded") }
        let urls = [
            "jsbridge://teleport?callback=r1",                                                        // 3 refused (not granted)
            "jsbridge://gotoWebview?params=%7B%22url%22%3A%22http%3A%2F%2Fshop.example.com%22%7D&callback=r2",  // 4
            "jsbridge://showAlert?params=%7B%22message%22%3A1%7D&callback=r3",                        // 2
            "jsbridge://showAlert?params=%7B%22message%22%3A%22" + String(repeating: "x", count: 600) + "%22%7D&callback=r4",  // 5
            "jsbridge://boom?callback=r5",                                                            // 6
            "jsbridge://show?nope=1&callback=r6",                                                     // 2 (parse)
        ]
        let setup = (1...6).map { "window.r\($0) = function (r) { got['r\($0)'] = r; testArrivals.arrived(); };" }.joined(separator: "\n")
        try await h.engine.evaluate("globalThis.got = {};\n\(setup)\n0")
        for url in urls { try h.host.handleLegacyURL(url, fromPage: h.pageID) }
        try await h.waitForPage("six legacy answers", "Object.keys(got).length === 6")
        let got = try await h.engine.evaluate("got")
        #expect(got["r1"] == ["data": .null, "err": 3, "msg": "refused: teleport: micro-app shop is not granted this action", "code": "refused"])
        #expect(got["r2"]?["err"] == 4 && got["r2"]?["code"] == "url_not_allowed")
        #expect(got["r3"]?["msg"] == "bad_payload: showAlert: payload.message: expected String")
        #expect(got["r4"]?["err"] == 5)
        #expect(got["r5"] == ["data": .null, "err": 6, "msg": "handler_failed: boom: exploded", "code": "handler_failed"])
        #expect(got["r6"]?["msg"] == #"bad_payload: legacy URL: unknown query item "nope" (only params and callback)"#)
        #expect(h.shell.state.navigationStack.count == 1 && h.shell.state.alerts.isEmpty)
    }

    @Test func noCallbackOrMissingFunctionIsRecordedAndDropped() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("location.assign('jsbridge://didFinishLoading'); location.replace('jsbridge://showAlert?params=%7B%7D&callback=missingFn'); 0")
        await h.waitForRecord("the failed delivery to missingFn") { $0.note?.hasPrefix("delivery failed") == true }
        await h.waitForShell("loading finished") { $0.loading == .finished }
        let notes = h.bridgeRecords.filter { $0.type == "legacy_reply" }.compactMap(\.note)
        #expect(notes.contains("dropped (no callback); didFinishLoading"))
        #expect(notes.contains { $0.contains("delivery failed") && $0.contains("missingFn is not a function") })
        // Navigations that are not bridge URLs are recorded and ignored.
        try await h.engine.evaluate("location.href = 'https://elsewhere.example/'; 0")
        await h.waitForRecord("the ignored navigation") { $0.type == "navigate" && $0.note?.hasPrefix("ignored") == true }
    }

    @Test func configurableScheme() async throws {
        let h = try await BridgeHarness.make(configuration: BridgeConfiguration(legacyScheme: "hybrid", clock: TestClock()))
        try await h.engine.evaluate("globalThis.r = null; window.cb = x => { r = x; testArrivals.arrived(); }; location.href = 'hybrid://didFinishLoading?callback=cb'; location.href = 'jsbridge://didFailLoading?params=%7B%22message%22%3A%22x%22%7D'; 0")
        try await h.waitForPage("the answer to didFinishLoading", "r !== null")
        #expect(try await h.engine.evaluate("r") == ["data": .null, "err": 0, "msg": "ok"])
        #expect(h.shell.state.loading == .finished)
    }
}
