import JSEngine
import Observation
import Testing
@testable import StateHub

struct CartState: Decodable, Sendable, Equatable {
    struct Item: Decodable, Sendable, Equatable { var id: String; var name: String; var price: Double; var qty: Int }
    var items: [Item]
}

@Suite("Observation", .tags(.engine), .timeLimit(.minutes(1)))
struct ObservationTests {
    @Test func changeStreamDeliversSnapshotThenMutations() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("globalThis.useC = defineStore('c', { state: () => ({ n: 0 }) }); useC();")
        var iterator = hub.changes(of: "c").makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.kind == .snapshot(reason: "current"))
        #expect(first.state == ["n": 0])
        try await engine.execute("useC().n = 1")
        let second = try #require(await iterator.next())
        #expect(second.kind == .mutations([AppliedMutation(type: "direct", ops: [.set(path: [.key("n")], value: 1)])]))
        #expect(second.state == ["n": 1])
        #expect(second.version == first.version + 1)
        try await engine.execute("useC().$patch({ n: 2 })")
        let third = try #require(await iterator.next())
        #expect(third.kind == .mutations([AppliedMutation(type: "patch object", ops: [.set(path: [.key("n")], value: 2)])]))
        try await engine.execute("useC().$dispose()")
        let fourth = try #require(await iterator.next())
        #expect(fourth.kind == .removed)
        #expect(fourth.state == nil)
    }

    @Test func slowConsumerKeepsTheNewestChanges() async throws {
        let hub = GlobalStateHub(configuration: .init(changeBufferLimit: 4))
        let engine = try await makePage(hub, flush: .sync)
        try await engine.execute("globalThis.useC = defineStore('c', { state: () => ({ n: 0 }) }); useC();")
        let stream = hub.changes(of: "c")
        try await engine.execute("for (let i = 1; i <= 100; i++) useC().n = i")
        var versions: [Int] = []
        var last: StoreChange?
        for await change in stream {
            versions.append(change.version)
            last = change
            if versions.count == 4 { break }
        }
        #expect(versions.count == 4)
        #expect(last?.state == ["n": 100]) // the newest state always arrives
        #expect(versions == versions.sorted())
    }

    @MainActor
    @Test func observedStoreUpdatesObservers() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("globalThis.useC = defineStore('c', { state: () => ({ n: 0 }) }); useC();")
        let observed = hub.observe(store: "c")
        #expect(observed.state == ["n": 0])
        let changed = Flag()
        withObservationTracking { _ = observed.state } onChange: { changed.set() }
        try await engine.execute("for (let i = 1; i <= 50; i++) useC().n = i")
        await awaitChanges(of: observed.state) { $0 == ["n": 50] }
        #expect(observed.state == ["n": 50])
        #expect(changed.value)
    }

    @MainActor
    @Test func typedMirrorDecodesAndReportsFailures() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute(try #require(JSSourcesFile.cart))
        let cart = hub.mirror(CartState.self, store: "cart")
        #expect(cart.value == CartState(items: []))
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])
        await awaitChanges(of: cart.value?.items.count) { $0 == 1 }
        #expect(cart.value == CartState(items: [.init(id: "p1", name: "Pen", price: 1.5, qty: 2)]))
        #expect(cart.decodingError == nil)
        // A state that does not fit the type is reported; the last good value stays.
        try await engine.execute("useCartStore().items.push({ id: 7 })")
        await awaitChanges(of: cart.decodingError) { $0 != nil }
        #expect(cart.decodingError != nil)
        #expect(cart.value?.items.count == 1)
    }

    @MainActor
    @Test func typedMirrorDecodesTaggedDates() async throws {
        struct Stamped: Decodable, Sendable { var at: Date; var note: String? }
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("defineStore('s', { state: () => ({ at: new Date(86400000), note: undefined }) })();")
        let mirror = hub.mirror(Stamped.self, store: "s")
        #expect(mirror.value?.at == Date(timeIntervalSince1970: 86_400))
        #expect(mirror.value?.note == nil)
        #expect(mirror.decodingError == nil)
        withExtendedLifetime(engine) {}
    }
}

/// Waits, without polling, until `condition` holds for what `read` returns: each turn
/// registers an Observation tracking of `read` and suspends until it reports a change. The
/// check and the registration run together on the main actor, where the hub updates its
/// observers, so no change can slip in between them.
@MainActor
func awaitChanges<Value>(of read: @autoclosure @MainActor () -> Value, until condition: (Value) -> Bool) async {
    while !condition(read()) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking { _ = read() } onChange: { continuation.resume() }
        }
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func set() { lock.lock(); raised = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return raised }
}

import Foundation
import JSSources
enum JSSourcesFile {
    static var cart: String? { JSSources.files["examples/cart.js"] }
}
