import Foundation
import Logging
import NIOCore
import SharedDocument
@testable import StateHubServer
import Synchronization
import Testing

@Suite struct OutgoingBudgetTests {
    private func connection(_ id: Int, _ budget: SyncOutgoingBudget, closed: Locked<[Int]>) -> SyncConnection {
        SyncConnection(id: id, document: "d", access: .readWrite, tokenID: nil, wantsAcknowledgements: false,
                       limits: .init(maxQueueBytes: 1 << 30, maxQueueMessages: 1 << 20), budget: budget,
                       logger: Logger(label: "budget-test"), closeChannel: { closed.withLock { $0.append(id) } })
    }

    @Test func aMessageSharedByManyConnectionsCountsOnceAndTheSlowestIsCutFirst() async {
        let budget = SyncOutgoingBudget(limit: 10_000)
        let closed = Locked<[Int]>([])
        let early = connection(1, budget, closed: closed), late = connection(2, budget, closed: closed)
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
        // Past the budget the connection with the most waiting goes, and only it.
        let third = OutgoingMessage(payload: [UInt8](repeating: 3, count: 3_996))
        early.send(third)
        late.send(third)
        #expect(closed.withLock { $0 } == [1])
        #expect(early.wasCut && !late.wasCut)
        #expect(budget.queuedBytes == 8_000)
        // What a writer sends leaves the budget; a finished queue ends the writer.
        late.finish()
        while let batch = await late.nextBatch(limit: 16) { late.sent(batch) }
        #expect(budget.queuedBytes == 0)
        #expect(late.queuedBytes == 0)
    }
}
