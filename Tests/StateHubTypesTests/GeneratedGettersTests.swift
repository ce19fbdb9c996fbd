import Foundation
import StateHub
import StateHubJSON
import StateHubPage
import StateHubTypes
import Testing

/// `statehub types` types a store's getters (docs/types.md, "Getters"): a `XGetters` struct and a
/// read-only `getters()` on the facade, only for stores whose getters were seen.
@Suite(.tags(.engine)) struct GeneratedGettersTests {
    @Test func gettersSeenGiveAStructAndAReader() {
        var cart = StoreObservations(id: "cart")
        cart.observe(state: ["items": []])
        cart.observe(getters: ["count": 0, "label": ["$type": "undefined"]])
        cart.observe(getters: ["count": 2, "label": "2 items"])
        var plain = StoreObservations(id: "plain")
        plain.observe(state: ["n": 1])
        plain.observe(getters: [:])
        let text = SwiftTypesWriter.write(stores: [cart, plain], sources: [])
        #expect(text.contains("public struct CartGetters: Codable, Equatable, Sendable {\n    public var count: Int\n    public var label: String?\n"), "\(text)")
        #expect(text.contains("    public func getters() throws -> CartGetters? {"))
        #expect(!text.contains("PlainGetters"))
        #expect(text.components(separatedBy: "func getters()").count == 2, "one reader, the cart's")
    }

    /// The committed generated file reads the example cart's getters from a real page as they change.
    @Test func theGeneratedCartGettersFollowTheStore() async throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("js/examples")
        let source = try String(contentsOf: examples.appendingPathComponent("cart.js"), encoding: .utf8)
        let page = try await HostedPage.make(.init(bundles: [.init(path: "cart.js", source: source)]))
        defer { Task { await page.close() } }
        let cart = CartStore(hub: page.hub)
        #expect(try cart.getters() == CartGetters(count: 0, total: 0))
        // The dispatch's result arrives after the batch carrying the getters (PROTOCOL.md A.5.2).
        try await cart.add(.init(id: "A1", name: "Apple", price: 2, qty: 3))
        #expect(try cart.getters() == CartGetters(count: 3, total: 6))
    }
}
