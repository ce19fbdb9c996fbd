import Foundation
import Logging
import NIOCore
import SharedDocument
@testable import StateHubServer
import StateHubTestSupport
import Synchronization
import Testing

@Suite(.tags(.unit)) struct OutgoingBudgetTests {
    /// Holds each write until the test ends it, as a socket that has not taken the bytes yet.
    final class HeldSink: SyncFrameSink {
        private let held = Locked<[@Sendable ((any Error)?) -> Void]>([])

        func write(_ messages: [OutgoingMessage], done: @escaping @Sendable ((any Error)?) -> Void) {
            held.withLock { $0.append(done) }
        }

        /// Ends every write held so far: `nil` written, an error failed (a closed channel's).
        func end(_ error: (any Error)?) {
            let writes = held.withLock { held in
                defer { held = [] }
                return held
            }
            for done in writes { done(error) }
        }

        var count: Int { held.withLock { $0.count } }
    }

    private func connection(_ id: Int, _ budget: SyncOutgoingBudget, _ sink: HeldSink, closed: Locked<[Int]>) -> SyncConnection {
        SyncConnection(id: id, document: "d", access: .readWrite, tokenID: nil, wantsAcknowledgements: false,
                       limits: .init(maxQueueBytes: 1 << 30, maxQueueMessages: 1 << 20), budget: budget,
                       logger: Logger(label: "budget-test"), sink: sink, closeChannel: { closed.withLock { $0.append(id) } })
    }

    @Test func aMessageSharedByManyConnectionsCountsOnceAndTheSlowestIsCutFirst() async {
        let budget = SyncOutgoingBudget(limit: 10_000)
        let closed = Locked<[Int]>([])
        let earlySink = HeldSink(), lateSink = HeldSink()
        let early = connection(1, budget, earlySink, closed: closed), late = connection(2, budget, lateSink, closed: closed)
        budget.register(early)
        budget.register(late)
        // 3,996 bytes framed: a 4-byte header (RFC 6455 §5.2), 4,000 bytes to send.
        let first = OutgoingMessage(payload: [UInt8](repeating: 1, count: 3_996))
        early.send(first)
        // One shared buffer queued on two connections: counted once.
        let second = OutgoingMessage(payload: [UInt8](repeating: 2, count: 3_996))
        early.send(second)
        late.send(second)
        #expect(budget.queuedBytes == 8_000)
        #expect(closed.withLock { $0 }.isEmpty)
        // One write at a time per connection: the first message went to the sink at once, the
        // second waits for that write to end.
        #expect(earlySink.count == 1 && lateSink.count == 1)
        // Past the budget the connection with the most waiting goes, and only it; what it had
        // queued or in flight leaves the budget at once.
        let third = OutgoingMessage(payload: [UInt8](repeating: 3, count: 3_996))
        early.send(third)
        late.send(third)
        #expect(closed.withLock { $0 } == [1])
        #expect(early.wasCut && !late.wasCut)
        #expect(budget.queuedBytes == 8_000)
        // Its write in flight then fails (the channel closed) and changes nothing more.
        earlySink.end(ChannelError.ioOnClosedChannel)
        #expect(budget.queuedBytes == 8_000)
        #expect(earlySink.count == 0)
        // A write that ends hands the sink what queued meanwhile; written bytes leave the budget.
        lateSink.end(nil)
        #expect(lateSink.count == 1)
        #expect(budget.queuedBytes == 4_000)
        lateSink.end(nil)
        late.finish()
        await late.allWritten()
        #expect(budget.queuedBytes == 0)
        #expect(late.queuedBytes == 0)
        #expect(lateSink.count == 0)
    }
}
