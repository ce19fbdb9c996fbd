import Foundation
import JSEngine
import JSSources
import StateHubTestSupport
import Testing
@testable import StateHub

/// A page: a real engine with the store runtime, attached to a hub.
func makePage(_ hub: GlobalStateHub, name: String = "page", flush: StoreScripts.Flush = .tick, clock: EngineClock = .real) async throws -> JavaScriptEngine {
    let engine = try JavaScriptEngine(configuration: .init(name: name, clock: clock))
    try await hub.attach(engine)
    try await engine.loadStoreRuntime(flush: flush)
    return engine
}

/// Waits until the mirror of `store` satisfies `condition` (messages cross threads), checked
/// now and on each of `hub.changes(of:)`; a hang fails after the shared deadline.
@discardableResult
func mirror(of hub: GlobalStateHub, _ store: String, becomes condition: @escaping @Sendable (JSONValue?) -> Bool,
            sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    await waitUntil("the mirror of \(store) to meet the test's condition", notifiedBy: hub.changes(of: store),
                    observed: { "\(hub.state(of: store).map { $0.jsonText() } ?? "no mirror")" }, sourceLocation: sourceLocation) {
        condition(hub.state(of: store))
    }
}

/// The engine's own `$state` of a store, through JSON (tagged values as the plugin encodes them).
func engineState(_ engine: JavaScriptEngine, _ store: String) async throws -> JSONValue {
    try await engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value[\(JSONValue.string(store).jsonText())])")
}

@Suite("Hub end to end", .tags(.engine))
struct HubEndToEndTests {
    @Test func mirrorsExampleStoresAndDispatches() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.evaluate(JSSources.files["examples/cart.js"] ?? "", sourceURL: "cart.js")
        #expect(hub.state(of: "cart") == ["items": []])
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])
        #expect(hub.state(of: "cart") == ["items": [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]]])
        let order = try await hub.dispatch(store: "cart", action: "checkout")
        #expect(order["count"] == 2)
        #expect(order["total"] == 3)
        #expect(hub.state(of: "cart") == ["items": []])
        await #expect(throws: StateHubError.self) { try await hub.dispatch(store: "cart", action: "checkout") }
    }
}
