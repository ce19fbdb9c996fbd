import Clocks
import Foundation
import Logging
import NIOCore
import SharedDocument
@testable import StateHubServer
import StateHubTestSupport
import Testing

/// Awareness within its bounds (docs/sync.md §2.5, "Awareness"): the relay rate on the host's
/// clock, the size of a state and of a document's states, and what waits for a receiving
/// connection. A document host and connections with recording sinks, no socket.
@Suite(.tags(.unit)) struct AwarenessBoundsTests {
    /// Every awareness entry written to a connection, in order; each write ends at once, from
    /// another task, as a channel's does.
    final class RecordingSink: SyncFrameSink {
        let entries: AsyncStream<AwarenessUpdate.Entry>
        private let continuation: AsyncStream<AwarenessUpdate.Entry>.Continuation

        init() { (entries, continuation) = AsyncStream.makeStream(of: AwarenessUpdate.Entry.self) }

        func write(_ messages: [OutgoingMessage], done: @escaping @Sendable ((any Error)?) -> Void) {
            for message in messages {
                var frame = message.buffer
                guard let length = frame.readInteger(as: UInt16.self).map({ Int($0 & 0x7F) }) else { continue }
                if length == 126 { _ = frame.readInteger(as: UInt16.self) } else if length == 127 { _ = frame.readInteger(as: UInt64.self) }
                guard case .awareness(let bytes)? = try? SyncMessage(decoding: Array(frame.readableBytesView)),
                      let update = try? AwarenessUpdate(decoding: bytes) else { continue }
                for entry in update.entries { continuation.yield(entry) }
            }
            Task { done(nil) }
        }
    }

    /// The entries a connection receives.
    struct Receiver {
        let entries: AsyncStream<AwarenessUpdate.Entry>

        /// The entries up to and including the first with `client` at `clock`.
        func through(client: Int, clock: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [AwarenessUpdate.Entry] {
            let seen = Locked<[AwarenessUpdate.Entry]>([])
            await waitFor("client \(client)'s awareness at clock \(clock) to be relayed", in: entries, sourceLocation: sourceLocation) { entry in
                seen.withLock { $0.append(entry) }
                return entry.client == client && entry.clock == clock
            }
            return seen.withLock { $0 }
        }
    }

    struct Document {
        let host: SyncDocumentHost
        let storage: ServerStorage
        let folder: URL
        let budget = SyncOutgoingBudget(limit: 1 << 30)
        let configuration: SyncConfiguration
        private let ids = Locked(0)

        init(_ configuration: SyncConfiguration, clock: TestClock<Duration>) async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("awareness-\(UUID().uuidString)")
            storage = try await ServerStorage.open(.sqlite(directory: folder), logger: Logger(label: "awareness-test"))
            self.configuration = configuration
            host = SyncDocumentHost(name: "d", storage: storage, instance: "i", configuration: configuration,
                                    clock: ServerClock(clock), logger: Logger(label: "awareness-test"), onFailure: { _ in })
        }

        /// A joined connection and what it receives.
        func join() async -> (SyncConnection, Receiver) {
            let sink = RecordingSink()
            let id = ids.withLock { id in
                id += 1
                return id
            }
            let connection = SyncConnection(id: id, document: "d", access: .readWrite, tokenID: nil, wantsAcknowledgements: false,
                                            limits: configuration.connectionLimits, budget: budget, logger: Logger(label: "awareness-test"),
                                            sink: sink, closeChannel: {})
            await host.join(connection)
            return (connection, Receiver(entries: sink.entries))
        }

        func close() async {
            await storage.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static func awareness(_ client: Int, _ clock: Int, state: String = #"{"user":"u"}"#) -> SyncMessage {
        .awareness(AwarenessUpdate(entries: [.init(client: client, clock: clock, state: state)]).encoded())
    }

    /// A burst of 2, then one relay a second, on a test clock: the third message waits until the
    /// clock has moved a whole second, and after another second a message goes out at once —
    /// ahead of a message another connection sends after it. On the real clock (milliseconds
    /// later) it would still be held, and the other connection's would arrive first.
    @Test func theRelayRateRunsOnTheHostsClock() async throws {
        var configuration = SyncConfiguration()
        configuration.awarenessRelaysPerSecond = 1
        configuration.awarenessRelayBurst = 2
        let clock = TestClock()
        let document = try await Document(configuration, clock: clock)
        let (alice, _) = await document.join()
        let (bob, _) = await document.join()
        let (_, reader) = await document.join()

        try await document.host.receive(Self.awareness(1, 1), from: alice)
        try await document.host.receive(Self.awareness(1, 2), from: alice)
        _ = await reader.through(client: 1, clock: 2)
        // Over the rate: held, to be relayed when a whole relay is allowed again (1 s).
        try await document.host.receive(Self.awareness(1, 3), from: alice)
        await clock.advance(by: .milliseconds(999))
        try await document.host.receive(Self.awareness(2, 1), from: bob)
        let beforeTheSecond = await reader.through(client: 2, clock: 1)
        #expect(!beforeTheSecond.contains { $0.client == 1 }, "relayed before its second had passed: \(beforeTheSecond)")
        // Past the second, not to it: on a test clock, a sleep that starts at its very deadline
        // waits for the clock's next move.
        await clock.advance(by: .milliseconds(2))
        _ = await reader.through(client: 1, clock: 3)

        // A second later one relay is allowed again, now: it leaves before Bob's next one.
        await clock.advance(by: .seconds(1))
        try await document.host.receive(Self.awareness(1, 4), from: alice)
        try await document.host.receive(Self.awareness(2, 2), from: bob)
        let refilled = await reader.through(client: 2, clock: 2)
        #expect(refilled.map(\.client) == [1, 2], "Alice's relay waited for a clock that did not move: \(refilled)")
        await document.close()
    }

    /// A state past `maxAwarenessStateBytes`, or one that takes the document's states past
    /// `maxAwarenessBytesPerDocument`, closes its connection with a typed reason; nothing of the
    /// message is kept or relayed.
    @Test func statesPastTheSizeCapsAreRefusedAndNotRelayed() async throws {
        var configuration = SyncConfiguration()
        configuration.maxAwarenessStateBytes = 1_000
        configuration.maxAwarenessBytesPerDocument = 2_000
        let document = try await Document(configuration, clock: TestClock())
        let (sender, _) = await document.join()
        let (_, reader) = await document.join()
        let large = String(repeating: "x", count: 1_001)
        let tooLarge = await #expect(throws: SyncProtocolError.self) {
            try await document.host.receive(Self.awareness(1, 1, state: #""\#(large)""#), from: sender)
        }
        #expect(tooLarge?.code == "awareness-too-large" && tooLarge?.closeCode == 1008, "\(String(describing: tooLarge))")
        #expect(tooLarge?.message.contains("at most 1000") == true, "\(String(describing: tooLarge))")

        let fits = #""\#(String(repeating: "y", count: 900))""#
        try await document.host.receive(Self.awareness(2, 1, state: fits), from: sender)
        try await document.host.receive(Self.awareness(3, 1, state: fits), from: sender)
        // A third 900-byte state passes 2,000 bytes for the document.
        let crowded = await #expect(throws: SyncProtocolError.self) {
            try await document.host.receive(Self.awareness(4, 1, state: fits), from: sender)
        }
        #expect(crowded?.code == "awareness-too-large" && crowded?.message.contains("2000 bytes together") == true, "\(String(describing: crowded))")
        // Replacing a kept state by one of the same size adds nothing, and is relayed.
        try await document.host.receive(Self.awareness(2, 2, state: fits), from: sender)
        let relayed = await reader.through(client: 2, clock: 2)
        #expect(!relayed.contains { $0.client == 1 || $0.client == 4 }, "a refused state was relayed: \(relayed.map(\.client))")
        await document.close()
    }

    /// What waits for a connection that does not read is coalesced per client; past
    /// `maxPendingAwarenessBytes` (many clients with large states) it is queued as a message,
    /// so the queue cap cuts off a reader that never reads instead of presence growing without
    /// bound. One client changing fast never gets there.
    @Test func pendingAwarenessPastItsBoundIsQueuedAndCountedByTheQueueCap() {
        final class HeldSink: SyncFrameSink {
            func write(_ messages: [OutgoingMessage], done: @escaping @Sendable ((any Error)?) -> Void) {}
        }
        let closed = Locked(false)
        func connection() -> SyncConnection {
            closed.withLock { $0 = false }
            return SyncConnection(id: 1, document: "d", access: .readWrite, tokenID: nil, wantsAcknowledgements: false,
                                  limits: .init(maxQueueBytes: 10_000, maxQueueMessages: 100, maxPendingAwarenessBytes: 2_000),
                                  budget: SyncOutgoingBudget(limit: 1 << 30), logger: Logger(label: "awareness-test"), sink: HeldSink(),
                                  closeChannel: { closed.withLock { $0 = true } })
        }
        let state = String(repeating: "z", count: 500)
        // One write is held by the sink: everything after it waits.
        let fast = connection()
        fast.sendAwareness([.init(client: 1, clock: 0, state: "{}")])
        for clock in 1...5_000 { fast.sendAwareness([.init(client: 2, clock: clock, state: state)]) }
        #expect(!closed.withLock { $0 } && fast.queuedBytes < 1_000, "one client's changes were not coalesced: \(fast.queuedBytes) bytes queued")

        let crowd = connection()
        crowd.sendAwareness([.init(client: 1, clock: 0, state: "{}")])
        var client = 2
        while !closed.withLock({ $0 }) && client < 1_000 {
            crowd.sendAwareness([.init(client: client, clock: 1, state: state)])
            client += 1
            // Before the queue cap, what spilled is queued and counted.
            if !closed.withLock({ $0 }) { #expect(crowd.queuedBytes <= 10_000) }
        }
        #expect(closed.withLock { $0 } && crowd.wasCut, "a reader that never reads was not cut off")
        // About 10,000 bytes in messages of about 2,000 (plus what was coalescing): cut near the cap, not before.
        #expect((20...30).contains(client), "cut after \(client - 2) clients of 500 bytes")
    }
}
