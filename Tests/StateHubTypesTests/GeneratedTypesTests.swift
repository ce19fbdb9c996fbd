import Foundation
import Observation
import StateHub
import StateHubPage
import StateHubTestSupport
import StateHubTypes
import Testing

/// Generated/InventoryTypes.swift is `statehub types Fixtures/inventory.js`: it compiles here,
/// it decodes the real mirror of that store from a real engine, its facade dispatches, and it
/// is exactly what the writer gives for that page now.
@Suite(.tags(.engine)) struct GeneratedTypesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func inventoryPage() async throws -> HostedPage {
        let source = try String(contentsOf: folder.appendingPathComponent("Fixtures/inventory.js"), encoding: .utf8)
        let page = try await HostedPage.make(.init(bundles: [.init(path: "inventory.js", source: source)]))
        try await page.engine.waitUntilIdle(timeout: .seconds(10))
        return page
    }

    /// The README's observation API, `hub.mirror(T.self, store:)`, reads a generated type with
    /// tagged members (`Map`, `Date`, `Set`, `BigInt`) as the facade's `state()` does, and follows
    /// changes. Before, it untagged the mirror first and failed: `$type` not found at `byWarehouse`.
    @Test func theHubsTypedMirrorDecodesGeneratedTypes() async throws {
        let page = try await Self.inventoryPage()
        defer { Task { await page.close() } }
        let store = InventoryStore(hub: page.hub)
        let mirror = await MainActor.run { page.hub.mirror(InventoryState.self, store: InventoryStore.id) }
        let expected = try #require(try store.state())
        await MainActor.run {
            #expect(mirror.decodingError == nil)
            #expect(mirror.value == expected)
        }
        try await store.stamp()
        let stamped = try #require(try store.state())
        #expect(stamped.byWarehouse["east"] == 1)
        // The mirror is updated in a later main-actor hop: follow it through Observation.
        let updates = await MainActor.run { ObservedChanges { _ = mirror.value } }
        await waitUntil("the typed mirror to show the stamp", notifiedBy: updates.changes) { await MainActor.run { mirror.value == stamped } }
        withExtendedLifetime(updates) {}
        await MainActor.run {
            #expect(mirror.decodingError == nil)
            #expect(mirror.value == stamped)
        }
    }

    @Test func theGeneratedTypesDecodeTheRealMirror() async throws {
        let page = try await Self.inventoryPage()
        defer { Task { await page.close() } }
        let store = InventoryStore(hub: page.hub)
        let state = try #require(try store.state())
        #expect(state.count == 3)
        #expect(state.price == 9.5)
        #expect(state.owner == InventoryState.Owner(name: "Ada", nickname: nil))
        #expect(state.items == [.init(qty: 2, sku: "A1", weight: 1), .init(gift: true, qty: 1, sku: "B2", weight: 0.25)])
        #expect(state.tags == [.string("fragile"), .int(7), .bool(true)])
        #expect(state.stock == ["sku-a1": 4, "sku-b2": 0])
        #expect(state.updatedAt.date == ISO8601DateFormatter().date(from: "2026-11-22T10:00:00Z"))
        #expect(state.byWarehouse["north"] == 3)
        #expect(state.byWarehouse.entries.map(\.key) == ["north", "south"])
        #expect(state.seen.values == [1, 2, 3])
        #expect(state.serial.decimal == "12345678901234567890")
        #expect(state.`class` == "keyword")
        #expect(state.aB == 1)
        #expect(state.empty == "empty")
        #expect(state.missing == nil)
        #expect(state.self_ == "self")
        #expect(state.CodingKeys_ == 1)
        #expect(state.Item == "a property")
        #expect(state.__proto__ == "own")

        // The facade: typed calls through the hub, then the mirror decoded again.
        let count = try await store.add(["sku": "C3", "qty": 5, "weight": 2.5], note: .null)
        #expect(count == 4)
        try await store.stamp()
        let after = try #require(try store.state())
        #expect(after.items.last == .init(qty: 5, sku: "C3", weight: 2.5))
        #expect(after.updatedAt.date == Date(timeIntervalSince1970: 1_795_422_600.5))
        #expect(after.seen.values == [1, 2, 3, 4])
        #expect(after.byWarehouse["east"] == 1)
        // Encoded back, the state is the mirror (tagged values included), normalized.
        let mirror = try #require(page.hub.state(of: "inventory"))
        #expect(try JSONValue(encoding: after).decodeMirror(InventoryState.self) == after)
        #expect(try mirror.decodeMirror(InventoryState.self) == after)
    }

    @Test func theCommittedFileIsWhatTheWriterGivesForThePageNow() async throws {
        let page = try await Self.inventoryPage()
        defer { Task { await page.close() } }
        let actions = StoreActionsScript.parse(try await page.engine.evaluate(StoreActionsScript.source))
        #expect(actions["inventory"]?["add"] == ["item", "note"])
        let mirrors = ["inventory": try #require(page.hub.state(of: "inventory"))]
        let stores = StoreActionsScript.observations(actions: actions, mirrors: mirrors)
        let generated = SwiftTypesWriter.write(stores: Array(stores.values), sources: ["inventory.js"])
        let committed = try String(contentsOf: Self.folder.appendingPathComponent("Generated/InventoryTypes.swift"), encoding: .utf8)
        #expect(TypesCheck.difference(committed: committed, generated: generated) == nil)
    }
}

/// One element each time something `read` reads changes (Observation, tracked again after each).
@MainActor
final class ObservedChanges {
    let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        (changes, changed) = AsyncStream<Void>.makeStream()
        self.read = read
        track()
    }

    private func track() {
        let changed = self.changed
        withObservationTracking(read) { [weak self] in
            changed.yield()
            Task { @MainActor in self?.track() }
        }
    }
}
