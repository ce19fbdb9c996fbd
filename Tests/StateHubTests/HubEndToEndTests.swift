import Foundation
import JSEngine
import JSSources
import Testing
@testable import StateHub

/// A page: a real engine with the store runtime, attached to a hub.
func makePage(_ hub: GlobalStateHub, name: String = "page", flush: StoreScripts.Flush = .tick, clock: EngineClock = .real) async throws -> JavaScriptEngine {
    let engine = try JavaScriptEngine(configuration: .init(name: name, clock: clock))
    try await hub.attach(engine)
    try await engine.loadStoreRuntime(flush: flush)
    return engine
}

/// Waits until the mirror of `store` satisfies `condition` (messages cross threads),
/// following `hub.changes(of:)` instead of polling; false if it has not after 10 s (a safety
/// net so a broken hub fails the test instead of hanging it).
func mirror(of hub: GlobalStateHub, _ store: String, becomes condition: @escaping @Sendable (JSONValue?) -> Bool) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in hub.changes(of: store) where condition(hub.state(of: store)) { return true }
            return false
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(10))
            return condition(hub.state(of: store))
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
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
