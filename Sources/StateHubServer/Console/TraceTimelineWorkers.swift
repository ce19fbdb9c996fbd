import NIOPosix
import Synchronization

/// Where the console's trace timelines are built (docs/console.md, "Traces screen"): on threads
/// of their own, not on the event loops, so a trace being read (up to its cap and the timeline's
/// bounds, seconds of work) never delays `/healthz` or any other answer; and at most `limit` at
/// once, each holding its trace and its answer in memory. Past that the route answers
/// `503 busy` with `Retry-After` before reading the body.
///
/// One per server (`ServerConfiguration.maxConcurrentTraceTimelines`); the threads are NIO's
/// shared blocking pool (`NIOThreadPool.singleton`, one thread per core), which lives as long as
/// the process.
final class TraceTimelineWorkers: Sendable {
    /// Timelines built at once, at most.
    let limit: Int
    private let pool = NIOThreadPool.singleton
    private let running = Mutex(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A slot, or nil when `limit` timelines are being built; give it back with ``release()``.
    func reserve() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() {
        running.withLock { $0 -= 1 }
    }

    /// Slots taken now.
    var reserved: Int { running.withLock { $0 } }

    /// Runs `body` on one of the pool's threads.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
