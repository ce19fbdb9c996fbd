import Clocks
import Foundation
@testable import StateHubServer
import Testing

/// The lease of a `.shared` ``SnapshotCache`` on a test clock: reads are answered from memory
/// while the listener's lease runs and not a moment after (docs/server.md, "Hot reads and
/// invalidation across instances"). `PostgresServerTests` checks the listener that renews it.
@Suite struct SnapshotCacheLeaseTests {
    @Test func readsComeFromMemoryUntilTheLeaseEndsAndNotAfter() async throws {
        let test = try await TestServer.sqlite()
        let clock = TestClock()
        let cache = SnapshotCache(mode: .shared, storage: test.server.storage,
                                  content: ContentCache(storage: test.server.storage, limit: 1 << 20), clock: ServerClock(clock))
        #expect(!cache.servesFromMemory, "served from memory before any lease")
        cache.extendNotifications(until: cache.now + .seconds(5))
        #expect(cache.servesFromMemory)
        await clock.advance(by: .seconds(5) - .nanoseconds(1))
        #expect(cache.servesFromMemory, "the lease ended early")
        await clock.advance(by: .nanoseconds(1))
        #expect(!cache.servesFromMemory, "served from memory past the lease")
        cache.extendNotifications(until: cache.now + .seconds(5))
        cache.endNotifications()
        #expect(!cache.servesFromMemory, "served from memory after the listener was lost")
        await test.close()
    }
}
