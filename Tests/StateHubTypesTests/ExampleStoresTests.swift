import Foundation
import StateHub
import StateHubPage
import Testing

/// Generated/ExampleStores.swift is `statehub types` of js/examples (hello, cart, user) with
/// Examples/Types/examples.ndjson (scripts/test.sh checks it): its facades drive the real
/// example stores and decode their mirrors.
@Suite(.tags(.engine)) struct ExampleStoresTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("js/examples")

    @Test func theExampleFacadesDriveTheExampleStores() async throws {
        var bundles: [HostedPage.Bundle] = []
        for name in ["hello.js", "cart.js", "user.js"] {
            bundles.append(.init(path: name, source: try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8)))
        }
        let page = try await HostedPage.make(.init(bundles: bundles))
        defer { Task { await page.close() } }
        let cart = CartStore(hub: page.hub)
        let user = UserStore(hub: page.hub)
        let hello = HelloStore(hub: page.hub)

        try await cart.add(.init(id: "A1", name: "Apple", price: 0.5, qty: 2))
        try await cart.add(.init(id: "B2", name: "Bread", price: 2))
        #expect(try cart.state() == CartState(items: [.init(id: "A1", name: "Apple", price: 0.5, qty: 2), .init(id: "B2", name: "Bread", price: 2, qty: 1)]))
        try await cart.remove("A1")
        #expect(try cart.state()?.items.map(\.id) == ["B2"])

        #expect(try user.state() == UserState(id: nil, loggedIn: false, name: "", roles: []))
        try await user.login("Ada Lovelace")
        #expect(try user.state() == UserState(id: "u-ada-lovelace", loggedIn: true, name: "Ada Lovelace", roles: ["user"]))

        #expect(try await hello.greet("Ana") == "Hello, Ana!")
        #expect(try hello.state() == HelloState(count: 1, greeting: "Hello, Ana!"))
    }

    /// The same facades made from a `HubTransaction` run their actions as the unit's steps: two
    /// pages on one hub, all or nothing (docs/types.md, docs/transactions.md).
    @Test func theFacadesRunAsStepsOfATransaction() async throws {
        func bundle(_ name: String) throws -> HostedPage.Bundle {
            .init(path: name, source: try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8))
        }
        let hub = GlobalStateHub()
        let shop = try await HostedPage.make(.init(name: "shop", bundles: [try bundle("cart.js")], hub: hub))
        let account = try await HostedPage.make(.init(name: "account", bundles: [try bundle("user.js")], hub: hub))
        defer { Task { await shop.close(); await account.close() } }

        try await hub.transaction { tx in
            try await CartStore(tx).add(.init(id: "A1", name: "Apple", price: 0.5, qty: 2))
            #expect(try CartStore(tx).state()?.items.map(\.id) == ["A1"], "inside the unit, the live mirror")
            #expect(try CartStore(hub: hub).state()?.items.isEmpty == true, "outside, the state before the unit")
            try await UserStore(tx).login("Ada Lovelace")
        }
        #expect(try CartStore(hub: hub).state()?.items.map(\.id) == ["A1"])
        #expect(try UserStore(hub: hub).state()?.loggedIn == true)

        struct ChangedMind: Error {}
        await #expect(throws: TransactionError.self) {
            try await hub.transaction { tx in
                try await CartStore(tx).remove("A1")
                try await UserStore(tx).logout()
                throw ChangedMind()
            }
        }
        #expect(try CartStore(hub: hub).state()?.items.map(\.id) == ["A1"], "restored")
        #expect(try UserStore(hub: hub).state()?.loggedIn == true, "restored")
    }
}
