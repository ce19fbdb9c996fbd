import JSEngine
import Testing
import Trace
@testable import StateHub

/// Two micro-frontends hosting one store id, kept in sync through the hub.
@Suite("Two pages, one store", .tags(.engine))
struct TwoPageTests {
    static let sharedStore = """
        globalThis.useShared = defineStore('shared', {
          state: () => ({ count: 0, tags: [], owner: 'nobody' }),
          actions: { add(by) { this.count += by; this.tags.push('add' + by); return this.count; } },
        });
        """

    func pages(_ hub: GlobalStateHub) async throws -> (JavaScriptEngine, JavaScriptEngine) {
        let first = try await makePage(hub, name: "first")
        try await first.execute(Self.sharedStore + "useShared().owner = 'first';")
        let second = try await makePage(hub, name: "second")
        try await second.execute(Self.sharedStore + "useShared();")
        // The second page was hydrated from the mirror; let it apply and acknowledge.
        try await settle(first, second)
        return (first, second)
    }

    /// Lets queued deliveries run in both pages (each `execute` runs after them, FIFO).
    func settle(_ pages: JavaScriptEngine...) async throws {
        for _ in 0..<3 { for page in pages { try await page.execute("void 0") } }
    }

    @Test func laterPageIsHydratedFromTheAuthoritativeOne() async throws {
        let hub = GlobalStateHub()
        let (first, second) = try await pages(hub)
        #expect(hub.hosts(of: "shared") == ["first", "second"])
        #expect(try await engineState(second, "shared") == ["count": 0, "tags": [], "owner": "first"])
        #expect(hub.state(of: "shared") == ["count": 0, "tags": [], "owner": "first"])
        withExtendedLifetime(first) {}
    }

    @Test func writesInEitherPageReachTheOtherWithoutEcho() async throws {
        let recorder = TraceRecorder()
        let hub = GlobalStateHub(configuration: .init(trace: recorder))
        let (first, second) = try await pages(hub)
        let before = recorder.recordedCount
        try await second.execute("useShared().count = 5; useShared().tags.push('from second')")
        try await settle(first, second)
        try await first.execute("useShared().owner = 'changed in first'")
        try await settle(first, second)
        let expected: JSONValue = ["count": 5, "tags": ["from second"], "owner": "changed in first"]
        #expect(try await engineState(first, "shared") == expected)
        #expect(try await engineState(second, "shared") == expected)
        #expect(hub.state(of: "shared") == expected)
        // Each write crossed once from its page and once to the other: no echo.
        let mutations = recorder.records.filter { $0.step >= before && $0.type == "apply_mutation" }
        #expect(mutations.filter { $0.direction == .webToNative }.count == 2)
        #expect(mutations.filter { $0.direction == .nativeToWeb }.count == 2)
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }

    @Test func dispatchRunsInTheAuthoritativePage() async throws {
        let hub = GlobalStateHub()
        let (first, second) = try await pages(hub)
        try await first.execute("useShared().$onAction(({ name }) => { globalThis.ranHere = name; })")
        try await second.execute("useShared().$onAction(({ name }) => { globalThis.ranHere = name; })")
        #expect(try await hub.dispatch(store: "shared", action: "add", args: [3]) == 3)
        try await settle(first, second)
        #expect(try await first.evaluate("globalThis.ranHere ?? null") == "add")
        #expect(try await second.evaluate("globalThis.ranHere ?? null") == .null)
        #expect(try await engineState(second, "shared")["count"] == 3)
    }

    @Test func concurrentWritesConvergeOnceWritesPause() async throws {
        let hub = GlobalStateHub()
        let (first, second) = try await pages(hub)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for i in 0..<50 { try await first.execute("useShared().count += 1; useShared().tags.push('f\(i)')") } }
            group.addTask { for i in 0..<50 { try await second.execute("useShared().count += 10; useShared().tags.splice(0, 1, 's\(i)')") } }
            try await group.waitForAll()
        }
        try await settle(first, second)
        try await settle(first, second)
        let mirror = try #require(hub.state(of: "shared"))
        #expect(try await engineState(first, "shared") == mirror)
        #expect(try await engineState(second, "shared") == mirror)
    }

    @Test func authorityPassesOnWhenTheFirstPageLeaves() async throws {
        let hub = GlobalStateHub()
        let (first, second) = try await pages(hub)
        await first.close()
        #expect(hub.hosts(of: "shared") == ["second"])
        #expect(try await hub.dispatch(store: "shared", action: "add", args: [2]) == 2)
        #expect(hub.state(of: "shared")?["count"] == 2)
        withExtendedLifetime(second) {}
    }
}
