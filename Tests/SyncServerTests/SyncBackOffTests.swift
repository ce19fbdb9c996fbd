import Clocks
import Foundation
import SharedDocumentSync
import StateHubTestSupport
import Testing

/// The native client's reconnect back-off (docs/sync.md §3.3) on a test clock: every wait is
/// read off the clock as it is asked for, so the schedule is checked exactly, and the client
/// reconnects only once the test moves the clock past the wait.
@Suite struct SyncBackOffTests {
    @Test func failedConnectsAreRetriedAfterDoublingJitteredWaitsUpToTheMaximum() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try DocumentStore(path: folder.appendingPathComponent("app.sqlite").path)
        let clock = TestClock()
        let (sleeps, sleepSink) = AsyncStream.makeStream(of: WatchedClock.Sleep.self)
        let transport = RefusingTransport()
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:1/sync", initialRetryDelay: .milliseconds(100),
                                              maximumRetryDelay: .milliseconds(400), clock: WatchedClock(base: clock, sleeps: sleepSink))
        let document = try await SyncedDocument.open("doc", store: store, configuration: configuration, transport: transport)

        await waitFor("the first connect", in: transport.attempts)
        for (index, base) in [100, 200, 400, 400, 400].map(Duration.milliseconds).enumerated() {
            guard let sleep = await waitFor("back-off wait \(index + 1)", in: sleeps) else { break }
            let waited = sleep.from.duration(to: sleep.until)
            #expect(waited >= base * 0.8 && waited <= base * 1.2, "wait \(index + 1) is \(waited); its base is \(base)")
            #expect(await document.currentStatus.state == .offline)
            #expect(await document.currentStatus.lastProblem == RefusingTransport.refusal.description)
            // Up to a nanosecond before the wait ends, nobody connects.
            await clock.advance(to: sleep.until.advanced(by: .nanoseconds(-1)))
            #expect(transport.count == index + 1, "connected again before wait \(index + 1) ended")
            await clock.advance(to: sleep.until.advanced(by: .nanoseconds(1)))
            await waitFor("connect \(index + 2), once wait \(index + 1) ended", in: transport.attempts)
        }
        await document.close()
    }
}

/// A transport whose every connect is refused; it counts them and announces each.
private final class RefusingTransport: SyncTransport {
    static let refusal = SyncConnectionClosed(code: nil, reason: "refused by the test")
    let attempts: AsyncStream<Void>
    private let attempted: AsyncStream<Void>.Continuation
    private let attemptCount = Locked(0)

    init() {
        (attempts, attempted) = AsyncStream.makeStream(of: Void.self)
    }

    var count: Int { attemptCount.withLock { $0 } }

    func connect(to url: String) async throws -> any SyncConnection {
        attemptCount.withLock { $0 += 1 }
        attempted.yield()
        throw Self.refusal
    }
}

/// A `TestClock` that tells the test each sleep it is asked for, with the time it was asked at.
private struct WatchedClock: Clock {
    struct Sleep: Sendable {
        let from: TestClock<Duration>.Instant
        let until: TestClock<Duration>.Instant
    }

    let base: TestClock<Duration>
    let sleeps: AsyncStream<Sleep>.Continuation

    var now: TestClock<Duration>.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: TestClock<Duration>.Instant, tolerance: Duration?) async throws {
        sleeps.yield(Sleep(from: base.now, until: deadline))
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
