import Synchronization

/// The current `ServerSnapshot`, kept fresh (docs/server.md, "Hot reads and invalidation
/// across instances").
///
/// - `.local` (SQLite, one instance): writes go through this process, which calls
///   `invalidate()` after each commit; reads take the snapshot from memory with one lock.
/// - `.shared` (PostgreSQL, several instances): while ``StateListenerService`` holds a lease
///   (``extendNotifications(until:)``), notifications keep the snapshot fresh and reads take it
///   from memory as with `.local`; every admin write waits until each live instance has seen
///   it. Without a lease (starting, listener lost) every read needs a generation check that
///   *started after the read arrived*. Checks are single-flight: while one is out, arrivals
///   wait for the next one, so a change committed anywhere before a request arrives is seen
///   by that request, and the database sees one small query per round trip, not per request.
///
/// The lease is counted on the server's clock (``now``, ``ServerConfiguration/clock``): the
/// continuous clock on a server, a `TestClock` in tests of the lease itself.
final class SnapshotCache: Sendable {
    enum Mode: Sendable { case local, shared }

    private struct State {
        var snapshot: ServerSnapshot?
        /// Bumped by every `invalidate()`; a refresh records the count it started at in
        /// `freshAsOf`. The snapshot is fresh only while the two are equal: a refresh in flight
        /// does not make the old snapshot fresh, and a write during a refresh keeps it stale.
        var invalidations = 1
        var freshAsOf = 0
        var running: Task<ServerSnapshot, any Error>?
        var queued: Task<ServerSnapshot, any Error>?
        /// `.shared`: until when (``now``) notifications keep the snapshot fresh.
        var notifiedUntil: Duration?
    }

    private let state = Mutex(State())
    private let mode: Mode
    private let storage: ServerStorage
    private let content: ContentCache
    /// The server's clock: the lease is counted on it.
    let clock: ServerClock

    init(mode: Mode, storage: ServerStorage, content: ContentCache, clock: ServerClock = ServerClock(ContinuousClock())) {
        self.mode = mode
        self.storage = storage
        self.content = content
        self.clock = clock
    }

    /// Now on the cache's clock: the time since the server was made.
    var now: Duration { clock.now }

    /// Marks the snapshot stale (call after a local write commits).
    func invalidate() {
        state.withLock { $0.invalidations += 1 }
    }

    /// `.shared`: reads skip the generation check until `instant` (``now``; the listener renews it).
    func extendNotifications(until instant: Duration) {
        state.withLock { $0.notifiedUntil = instant }
    }

    /// `.shared`: every read checks the generation again (the listener is gone).
    func endNotifications() {
        state.withLock { $0.notifiedUntil = nil }
    }

    /// Whether reads are answered from memory without a generation check now.
    var servesFromMemory: Bool {
        state.withLock { mode == .local || $0.notifiedUntil.map { now < $0 } == true }
    }

    /// A snapshot at least as new as every write committed before this call (for `.shared`
    /// with a lease: every write whose admin request has been answered).
    func current() async throws -> ServerSnapshot {
        let fresh = state.withLock { state -> ServerSnapshot? in
            guard state.freshAsOf == state.invalidations, let snapshot = state.snapshot else { return nil }
            if mode == .local { return snapshot }
            guard let until = state.notifiedUntil, now < until else { return nil }
            return snapshot
        }
        if let fresh { return fresh }
        let task = state.withLock { state -> Task<ServerSnapshot, any Error> in
            if let queued = state.queued { return queued }
            if let running = state.running {
                // `running` may have read the generation before we arrived: wait for the next check.
                let next = Task { () async throws -> ServerSnapshot in
                    _ = await running.result
                    self.state.withLock { state in
                        state.running = state.queued
                        state.queued = nil
                    }
                    return try await self.refresh()
                }
                state.queued = next
                return next
            }
            let first = Task { () async throws -> ServerSnapshot in try await self.refresh() }
            state.running = first
            return first
        }
        return try await task.value
    }

    private func refresh() async throws -> ServerSnapshot {
        let (previous, seen) = state.withLock { state in (state.snapshot, state.invalidations) }
        do {
            let snapshot: ServerSnapshot
            if let previous, try await storage.generation() == previous.generation {
                snapshot = previous
            } else {
                snapshot = try await ServerSnapshot.build(from: storage.state(), content: content)
            }
            state.withLock { state in
                if let stored = state.snapshot, stored.generation > snapshot.generation {
                    // keep the newer one
                } else {
                    state.snapshot = snapshot
                }
                state.freshAsOf = max(state.freshAsOf, seen)
                state.running = nil
            }
            return snapshot
        } catch {
            state.withLock { state in state.running = nil }
            throw error
        }
    }
}
