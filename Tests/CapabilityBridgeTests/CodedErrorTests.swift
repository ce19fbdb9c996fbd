import CapabilityBridge
import Clocks
import JSEngine
import StateHubTestSupport
import Testing

@Suite("Coded errors reach JavaScript", .tags(.engine))
struct CodedErrorTests {
    @Test func unknownAction() async throws {
        let h = try await BridgeHarness.make()
        let reply = try await h.invoke("teleport", ["to": "mars"])
        #expect(reply["ok"] == false)
        #expect(reply["code"] == "unknown_action")
        #expect(reply["message"] == "teleport: no handler for this action")
    }

    struct BadPayloadCase: Sendable, CustomTestStringConvertible {
        var action: String
        var payload: String
        var message: String
        var testDescription: String { "\(action) \(payload)" }
    }

    static let badPayloads: [BadPayloadCase] = [
        BadPayloadCase(action: "showAlert", payload: #"{"message":5}"#, message: "showAlert: payload.message: expected String"),
        BadPayloadCase(action: "showAlert", payload: #"{"title":"x"}"#, message: "showAlert: payload.message: required field missing"),
        BadPayloadCase(action: "showAlert", payload: #"{"message":null}"#, message: "showAlert: payload.message: expected String, got null"),
        BadPayloadCase(action: "showAlert", payload: #"{"message":"m","buttons":["OK",3]}"#, message: "showAlert: payload.buttons[1]: expected String"),
        BadPayloadCase(action: "configNative", payload: #"{"configs":[{"type":"nav_item_right","title":"t","action":"a"},{"type":"sidebar"}]}"#,
                       message: #"configNative: payload.configs[1].type: unknown config type "sidebar" (nav_item_right or title)"#),
        BadPayloadCase(action: "configNative", payload: #"{"configs":[{"type":"nav_item_right","action":"a"}]}"#,
                       message: "configNative: payload.configs[0].title: a nav_item_right needs title or icon_url"),
        BadPayloadCase(action: "doAction", payload: #"{"action":"fly"}"#,
                       message: "doAction: payload.action: Cannot initialize Kind from invalid String value fly"),
        BadPayloadCase(action: "gotoNative", payload: #"{"page":"settings","params":[1,2]}"#, message: "gotoNative: payload.params: expected Object"),
        BadPayloadCase(action: "gotoWebview", payload: #"{"title":"x"}"#, message: "gotoWebview: payload.url: required field missing"),
    ]

    @Test(arguments: badPayloads)
    func badPayloadNamesTheField(_ c: BadPayloadCase) async throws {
        let h = try await BridgeHarness.make()
        let reply = try await h.invoke(c.action, try JSONValue(parsing: c.payload))
        #expect(reply["code"] == "bad_payload")
        #expect(reply["message"] == .string(c.message))
    }

    @Test func malformedRequestsAreAnsweredWhenTheirIdCanBeRead() async throws {
        let h = try await BridgeHarness.make()
        let noAction = try await h.postRaw(#"{"v":1,"id":"x1","payload":{}}"#)
        #expect(noAction == ["id": "x1", "ok": false, "error": ["code": "bad_payload", "message": "request.action: required field missing"]])
        let arrayPayload = try await h.postRaw(#"{"v":1,"id":"x2","action":"showAlert","payload":[]}"#)
        #expect(arrayPayload["error"]?["message"] == "showAlert: payload: expected an object")
        let version = try await h.postRaw(#"{"v":2,"id":"x3","action":"showAlert","payload":{}}"#)
        #expect(version["error"]?["code"] == "bad_payload")
        // No id: nothing to answer; recorded and dropped.
        try await h.engine.evaluate(#"window.webkit.messageHandlers.bridge.postMessage('{not json')"#)
        #expect(h.bridgeRecords.contains { $0.note?.hasPrefix("dropped: request is not valid JSON") == true })
    }

    @Test func refusedActionIsRecorded() async throws {
        let h = try await BridgeHarness.make(grants: .actions(["getInitialData"]))
        #expect(try await h.invoke("getInitialData")["ok"] == true)
        let reply = try await h.invoke("gotoNative", ["page": "settings"])
        #expect(reply["code"] == "refused")
        #expect(reply["message"] == "gotoNative: micro-app shop is not granted this action")
        #expect(h.shell.state.navigationStack.count == 1)
        #expect(h.bridgeRecords.contains { $0.type == "reply" && $0.note == "gotoNative: refused" && $0.direction == .nativeToWeb })
        // Not granted and unknown: refused first, so a page cannot probe which actions exist.
        #expect(try await h.invoke("teleport")["code"] == "refused")
    }

    @Test(arguments: [
        ("http://shop.example.com/cart", "gotoWebview: only https URLs may be opened, not http"),
        ("https://evil.example/cart", "gotoWebview: host evil.example is not on the allowlist"),
        ("https://shop.example.com.evil.example/", "gotoWebview: host shop.example.com.evil.example is not on the allowlist"),
        ("https://cdn.example.com/x", "gotoWebview: host cdn.example.com is not on the allowlist"),
        ("https://user@shop.example.com/", "gotoWebview: URLs with user info are refused"),
        ("javascript:alert(1)", "gotoWebview: only https URLs may be opened, not javascript"),
    ])
    func disallowedURLs(url: String, message: String) async throws {
        let h = try await BridgeHarness.make()
        let reply = try await h.invoke("gotoWebview", ["url": .string(url)])
        #expect(reply["code"] == "url_not_allowed")
        #expect(reply["message"] == .string(message))
        #expect(h.shell.state.navigationStack.count == 1)
    }

    @Test func theURLPolicyAppliesEvenWhenABusinessHandlerTakesOver() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("gotoWebview", payload: JSONValue.self, result: JSONValue.self) { _, _ in "taken over" }
        #expect(try await h.invoke("gotoWebview", ["url": "http://shop.example.com/"])["code"] == "url_not_allowed")
        #expect(try await h.invoke("gotoWebview", ["url": "https://shop.example.com/"])["data"] == "taken over")
    }

    @Test func oversizePayload() async throws {
        let h = try await BridgeHarness.make(configuration: BridgeConfiguration(maxRequestBytes: 1024, clock: TestClock()))
        let reply = try await h.invoke("showAlert", ["message": .string(String(repeating: "x", count: 2000))])
        #expect(reply["code"] == "payload_too_large")
        #expect(reply["message"]?.stringValue?.hasSuffix("is over the cap of 1024 bytes") == true)
        #expect(h.shell.state.alerts.isEmpty)
        #expect(try await h.invoke("showAlert", ["message": "small"])["ok"] == true)
    }

    @Test func handlerThrowing() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "database offline" } }
        let h = try await BridgeHarness.make()
        h.host.register("save", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in throw Broken() }
        h.host.register("saveCoded", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in
            throw BridgeError(.refused, "save: read-only session")
        }
        let reply = try await h.invoke("save")
        #expect(reply["code"] == "handler_failed" && reply["message"] == "save: database offline")
        let coded = try await h.invoke("saveCoded")
        #expect(coded["code"] == "refused" && coded["message"] == "save: read-only session")
    }

    @Test func nativeTimeLimit() async throws {
        let clock = TestClock()
        // The page's clock is manual too: the client's own timeout never fires meanwhile.
        let h = try await BridgeHarness.make(
            configuration: BridgeConfiguration(handlerTimeLimit: .milliseconds(50), clock: clock), clock: .manual)
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let (ended, end) = AsyncStream<String>.makeStream()
        h.host.register("hang", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in
            enter.yield()
            do { try await clock.sleep(for: .seconds(30)) } catch {
                end.yield("cancelled")
                throw error
            }
            return "too late"
        }
        try await h.engine.evaluate("""
        globalThis.reply = null;
        invokeNative('hang', {}).then(d => ({ ok: true, data: d }), e => ({ code: e.code, message: e.message }))
          .then(r => { reply = r; testArrivals.arrived(); });
        0
        """)
        await waitFor("the hang handler to start", in: entered)
        await clock.advance(by: .milliseconds(49))
        #expect(try await h.engine.evaluate("reply") == .null, "not answered before the limit")
        await clock.advance(by: .milliseconds(1))
        try await h.waitForPage("the timeout reply", "reply !== null")
        let reply = try await h.engine.evaluate("reply")
        #expect(reply["code"] == "timeout")
        #expect(reply["message"]?.stringValue?.hasPrefix("hang: no answer from the native handler within") == true)
        #expect(await waitFor("the abandoned handler to be cancelled", in: ended) == "cancelled")
        #expect(try await h.invoke("didFinishLoading")["ok"] == true)
    }

    @Test func clientTimeoutUnderTheManualClock() async throws {
        let h = try await BridgeHarness.make(clock: .manual)
        let gate = AsyncGate()
        h.host.register("never", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in
            await gate.wait()
            return "late"
        }
        try await h.engine.evaluate("""
        globalThis.outcome = null;
        invokeNative('never', {}, { timeout: 1000 }).then(d => { outcome = 'resolved' }, e => { outcome = e.code + ': ' + e.message });
        0
        """)
        try await h.engine.advanceClock(by: .milliseconds(999))
        #expect(try await h.engine.evaluate("outcome") == .null)
        try await h.engine.advanceClock(by: .milliseconds(1))
        #expect(try await h.engine.evaluate("outcome") == "timeout: never: no reply from native within 1000 ms")
        await gate.open()
        // The late native reply is ignored by the client (already settled).
        await h.waitForRecord("the late reply to never") { $0.type == "reply" && $0.note == "never" }
        #expect(try await h.engine.evaluate("[outcome, StateHubBridge.pendingCount()]") == ["timeout: never: no reply from native within 1000 ms", 0])
    }
}

/// Suspends callers until opened.
actor AsyncGate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
