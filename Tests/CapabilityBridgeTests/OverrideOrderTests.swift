import CapabilityBridge
import JSEngine
import Synchronization
import Testing

@Suite("Handler layers: business first, take over or fall through", .tags(.engine))
struct OverrideOrderTests {
    struct Alert: Codable, Sendable { var message: String }

    @Test func businessHandlerTakesOverAFrameworkAction() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("showAlert", payload: Alert.self, result: ShowAlertResult.self) { payload, context in
            #expect(context.action == "showAlert" && context.app.id == "shop" && context.transport == .message)
            return ShowAlertResult(index: payload.message.count)
        }
        let reply = try await h.invoke("showAlert", ["message": "abc"])
        #expect(reply["data"] == ["index": 3])
        #expect(h.shell.state.alerts.isEmpty, "the framework handler must not run when the business one takes over")
    }

    @Test func businessHandlerFallsThroughToTheFramework() async throws {
        let h = try await BridgeHarness.make()
        let seen = Mutex<[String]>([])
        h.host.register("showAlert", payload: Alert.self, result: ShowAlertResult.self) { payload, _ in
            seen.withLock { $0.append(payload.message) }
            if payload.message.hasPrefix("mine:") { return ShowAlertResult(index: 7) }
            throw BridgeFallThrough()
        }
        #expect(try await h.invoke("showAlert", ["message": "mine: x"])["data"] == ["index": 7])
        #expect(try await h.invoke("showAlert", ["message": "framework"])["data"] == ["index": 0])
        #expect(seen.withLock { $0 } == ["mine: x", "framework"], "the business handler runs first, every time")
        #expect(h.shell.state.alerts.map(\.message) == ["framework"])
    }

    @Test func businessActionsAndErrorsWithTheirOwnCode() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("addToCart", payload: JSONValue.self, result: JSONValue.self) { payload, _ in
            guard let sku = payload["sku"]?.stringValue else { throw BridgeError(.badPayload, "addToCart: payload.sku: expected String") }
            return ["added": .string(sku), "payload": payload]
        }
        let ok = try await h.invoke("addToCart", ["sku": "A1", "b": 1, "a": 2])
        #expect(ok["data"] == ["added": "A1", "payload": ["sku": "A1", "b": 1, "a": 2]])
        // JSONValue results keep key order all the way to JavaScript.
        #expect(try await h.engine.evaluateAndAwait("invokeNative('addToCart', {sku:'Z', b:1, a:2}).then(d => Object.keys(d.payload).join())") == "sku,b,a")
        let bad = try await h.invoke("addToCart", [:])
        #expect(bad["code"] == "bad_payload" && bad["message"] == "addToCart: payload.sku: expected String")
    }

    @Test func fallingThroughWithoutAFrameworkHandlerIsUnknownAction() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("custom", payload: EmptyPayload.self, result: JSONValue.self) { _, _ in throw BridgeFallThrough() }
        let reply = try await h.invoke("custom")
        #expect(reply["code"] == "unknown_action")
    }

    @Test func unregisterRestoresTheFrameworkHandler() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("didFinishLoading", payload: EmptyPayload.self, result: String.self) { _, _ in "business" }
        #expect(try await h.invoke("didFinishLoading")["data"] == "business")
        #expect(h.shell.state.loading == .loading)
        h.host.unregister("didFinishLoading")
        #expect(try await h.invoke("didFinishLoading")["data"] == .null)
        #expect(h.shell.state.loading == .finished)
        #expect(h.host.registeredActions == FrameworkAction.allCases.map(\.rawValue).sorted())
    }

    @Test func asyncHandlersAndEventsFromAHandler() async throws {
        let h = try await BridgeHarness.make()
        try await h.engine.evaluate("globalThis.got = []; onNative('progress', d => got.push(d)); 0")
        h.host.register("slow", payload: EmptyPayload.self, result: Int.self) { _, context in
            context.sendEvent("progress", data: ["step": 1])
            await Task.yield()  // the handler really suspends between its two events
            context.sendEvent("progress", data: ["step": 2])
            return 42
        }
        #expect(try await h.invoke("slow")["data"] == 42)
        #expect(try await h.engine.evaluate("JSON.stringify(got)") == #"[{"step":1},{"step":2}]"#)
    }
}

@Suite("Synchronous handlers (the fast path)", .tags(.engine))
struct SynchronousHandlerTests {
    @Test func syncHandlersTakeOverFallThroughAndFail() async throws {
        let h = try await BridgeHarness.make()
        h.host.registerSync("showAlert", payload: JSONValue.self, result: JSONValue.self) { payload, _ in
            if payload["message"] == "mine" { return "sync" }
            throw BridgeFallThrough()
        }
        h.host.registerSync("add", payload: [Int].self, result: Int.self) { numbers, _ in numbers.reduce(0, +) }
        h.host.registerSync("fail", payload: EmptyPayload.self, result: Int.self) { _, _ in throw BridgeError(.refused, "fail: no") }
        #expect(try await h.invoke("showAlert", ["message": "mine"])["data"] == "sync")
        #expect(try await h.invoke("showAlert", ["message": "framework"])["data"] == ["index": 0])
        #expect(h.shell.state.alerts.map(\.message) == ["framework"], "falling through runs the async framework handler once")
        #expect(try await h.invoke("add", ["n": 1])["message"] == "add: payload: expected Array")
        #expect(try await h.invoke("fail")["code"] == "refused")
        #expect(try await h.engine.evaluateAndAwait("invokeNative('showAlert', {message: 'mine'}).then(d => d)") == "sync")
    }
}
