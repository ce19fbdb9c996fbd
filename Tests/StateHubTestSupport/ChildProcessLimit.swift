import Foundation

/// At most so many child processes at once, waited for without holding a thread.
///
/// A test that blocks a cooperative thread while its child (`statehub`, node) runs bounds the
/// children to the pool's width by accident and starves every other test. Awaiting instead
/// frees the pool, and this limit keeps the children from all running at once: a hundred
/// `statehub` processes on two cores turn every time limit in them into a coin toss.
package actor ChildProcessLimit {
    /// One limit for the whole test run, as wide as the machine.
    package static let shared = ChildProcessLimit(ProcessInfo.processInfo.activeProcessorCount)

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(_ width: Int) {
        available = max(1, width)
    }

    /// Runs `body` once a place is free, and frees it after.
    package func run<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows -> Result {
        if available > 0 {
            available -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
