import Foundation
import JSEngine
import Testing
@testable import StateHub
import StateHubTesting

/// Nothing a caller was told succeeded is lost. The authoritative page is
/// re-hydrated whenever it writes without having applied the other page's writes; writes it
/// makes before that hydration arrives cannot be kept, so a dispatch whose writes the hub
/// had to discard fails with `StateHubError.writesDiscarded` instead of reporting success.
@Suite("Two pages: dispatched writes are kept or fail truthfully", .tags(.engine))
struct TwoPageDispatchTests {
    static let store = """
        globalThis.useShared = defineStore('shared', {
          state: () => ({ count: 0, first: 0, second: 0 }),
          actions: { add(by) { this.count += by; return this.count; } },
        });
        """

    @Test func fourHundredDispatchesWhileBothPagesWriteEndAtFourHundred() async throws {
        let hub = GlobalStateHub()
        let first = try await makePage(hub, name: "first")
        try await first.execute(Self.store + "useShared();")
        let second = try await makePage(hub, name: "second")
        try await second.execute(Self.store + "useShared();")
        let total = 400
        let discarded = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<total {
                    // A dispatch that fails truthfully is retried: its write is not in the mirror.
                    while true {
                        do {
                            try await hub.dispatch(store: "shared", action: "add", args: [1])
                            break
                        } catch StateHubError.writesDiscarded {
                            discarded.increment()
                        }
                    }
                }
            }
            group.addTask { for i in 0..<200 { try await first.execute("useShared().first = \(i)") } }
            group.addTask { for i in 0..<200 { try await second.execute("useShared().second = \(i)") } }
            try await group.waitForAll()
        }
        for _ in 0..<5 { try await first.execute("void 0"); try await second.execute("void 0") }
        let mirror = try #require(hub.state(of: "shared"))
        #expect(mirror["count"] == .number(Double(total)), "discarded and retried: \(discarded.value); problems: \(hub.problems.prefix(3))")
        #expect(try await engineState(first, "shared") == mirror)
        #expect(try await engineState(second, "shared") == mirror)
        print("two-page dispatch: \(discarded.value) of \(total) dispatches failed truthfully and were retried")
    }
}

extension TwoPageDispatchTests {
    /// 1,000 random interleavings of dispatches and direct writes in both pages, each ending
    /// at a quiet point where the count equals the successful dispatches and both pages equal
    /// the mirror.
    @Test func randomInterleavingsKeepEverySuccess() async throws {
        let hub = GlobalStateHub()
        let first = try await makePage(hub, name: "first")
        try await first.execute(Self.store + "useShared();")
        let second = try await makePage(hub, name: "second")
        try await second.execute(Self.store + "useShared();")
        var generator = SeededRandomNumberGenerator(seed: 20261123)
        var succeeded = 0
        var failedTruthfully = 0
        for round in 0..<1_000 {
            let dispatches = Int.random(in: 0...3, using: &generator)
            let firstWrites = Int.random(in: 0...3, using: &generator)
            let secondWrites = Int.random(in: 0...3, using: &generator)
            let outcomes = try await withThrowingTaskGroup(of: Int.self) { group -> [Int] in
                group.addTask {
                    var ok = 0
                    for _ in 0..<dispatches {
                        do { try await hub.dispatch(store: "shared", action: "add", args: [1]); ok += 1 } catch StateHubError.writesDiscarded { ok += 1_000 }
                    }
                    return ok
                }
                group.addTask { for i in 0..<firstWrites { try await first.execute("useShared().first = \(round * 10 + i)") }; return 0 }
                group.addTask { for i in 0..<secondWrites { try await second.execute("useShared().second = \(round * 10 + i)") }; return 0 }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let total = outcomes.reduce(0, +)
            succeeded += total % 1_000
            failedTruthfully += total / 1_000
            for _ in 0..<3 { try await first.execute("void 0"); try await second.execute("void 0") }
            let mirror = try #require(hub.state(of: "shared"))
            try #require(mirror["count"] == .number(Double(succeeded)), "round \(round): \(mirror) after \(succeeded) successes")
            try #require(try await engineState(first, "shared") == mirror, "round \(round)")
            try #require(try await engineState(second, "shared") == mirror, "round \(round)")
        }
        print("random interleavings: \(succeeded) dispatches kept, \(failedTruthfully) failed truthfully")
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
