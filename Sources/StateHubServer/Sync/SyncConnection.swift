import Logging
import NIOCore
import SharedDocument
import Synchronization

/// Where a connection's frames go: the channel (``SyncFrameWriter``), or a test's recorder.
protocol SyncFrameSink: Sendable {
    /// Writes `messages` in order with one flush and calls `done` once with the outcome (`nil`:
    /// they reached the socket), from any thread, never from within this call.
    func write(_ messages: [OutgoingMessage], done: @escaping @Sendable ((any Error)?) -> Void)
}

/// One WebSocket client of a document: who it is, what it may do, and its own bounded queue of
/// messages to send (docs/sync.md §2.5). A broadcast only appends to queues, so a slow client
/// never makes anyone else wait; a client whose queue passes the cap, or the slowest one when
/// every queue together passes the server-wide budget, is cut off.
///
/// No task writes: the first message queued on an idle connection hands the queue to the sink,
/// and each finished write hands it what queued meanwhile (at most ``writeBatchLimit``
/// messages, one flush). A suspended writer task per connection cost task memory per open
/// document and one task switch per wake-up.
final class SyncConnection: Sendable, Hashable {
    let id: Int
    let document: String
    let access: DocumentAccess
    /// The id of the token it connected with (`nil`: an admin token), to close it when revoked.
    let tokenID: Int?
    /// Whether it asked for acknowledgements (`?ack=1`, docs/sync.md §1.4).
    let wantsAcknowledgements: Bool
    let limits: Limits
    private let budget: SyncOutgoingBudget
    private let logger: Logger
    private let sink: any SyncFrameSink
    /// Closes the TCP connection at once: a client that does not read cannot receive a close frame.
    private let closeChannel: @Sendable () -> Void
    private let state = Mutex(QueueState())
    /// Bytes queued and not yet written, readable without the lock (to find the slowest reader).
    private let queued = Atomic<Int>(0)

    /// The most messages one write takes from the queue (one flush each).
    static let writeBatchLimit = 256

    struct Limits: Sendable {
        var maxQueueBytes: Int
        var maxQueueMessages: Int
        /// Awareness waiting to be coalesced (``PendingAwareness/bytes``); past it what waits is
        /// queued as one message, which the queue caps above count.
        var maxPendingAwarenessBytes = SyncConfiguration().maxPendingAwarenessBytes
    }

    private struct QueueState {
        var queue: [OutgoingMessage] = []
        var head = 0
        /// Bytes queued or being written.
        var bytes = 0
        /// A batch is with the sink.
        var writing = false
        /// That batch, until its write ends or the queue is dropped (whichever comes first
        /// releases it from the budget, once).
        var inFlight: [OutgoingMessage] = []
        /// Waiting until nothing is queued or being written (``allWritten()``).
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// No more messages are accepted.
        var finished = false
        /// Cut off: nothing more is accepted and the queue was dropped.
        var cut = false
        /// Awareness to send, coalesced per client; written as one message with the next batch.
        var awareness = PendingAwareness()

        var count: Int { queue.count - head }

        /// The oldest `limit` messages at most, in order; empty when nothing is queued.
        mutating func popBatch(limit: Int) -> [OutgoingMessage] {
            let end = min(queue.count, head + limit)
            let batch = Array(queue[head..<end])
            head = end
            if head == queue.count {
                // An idle connection's queue keeps no storage (memory per open document).
                queue = []
                head = 0
            } else if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return batch
        }

        /// Drops the queue and the batch being written (the budget stops counting both now).
        mutating func drain() -> [OutgoingMessage] {
            let rest = Array(queue[head...]) + inFlight
            inFlight = []
            awareness = PendingAwareness()
            queue = []
            head = 0
            bytes = 0
            return rest
        }

        /// The waiters to resume when nothing is queued or being written.
        mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !writing, count == 0, awareness.isEmpty else { return [] }
            defer { idleWaiters = [] }
            return idleWaiters
        }
    }

    init(id: Int, document: String, access: DocumentAccess, tokenID: Int?, wantsAcknowledgements: Bool, limits: Limits,
         budget: SyncOutgoingBudget, logger: Logger, sink: any SyncFrameSink, closeChannel: @escaping @Sendable () -> Void) {
        self.id = id
        self.document = document
        self.access = access
        self.tokenID = tokenID
        self.wantsAcknowledgements = wantsAcknowledgements
        self.limits = limits
        self.budget = budget
        self.logger = logger
        self.sink = sink
        self.closeChannel = closeChannel
    }

    /// Queues `message`; past the caps the connection is closed instead and nothing more is queued.
    func send(_ message: SyncMessage) { send(bytes: message.encoded()) }

    func send(bytes: [UInt8]) { send(OutgoingMessage(payload: bytes)) }

    /// Queues `message` (one shared buffer when one message goes to many connections; the
    /// server-wide budget counts it once).
    func send(_ message: OutgoingMessage) {
        budget.hold(message)
        let outcome = state.withLock { enqueue(message, in: &$0) }
        settle(outcome, message)
    }

    /// What queuing one message came to.
    private enum Outcome {
        /// Queued; `write`: the connection was idle, so the caller starts the writing.
        case queued(write: Bool)
        /// Finished or cut already: nothing was queued.
        case refused
        /// Past a cap: the connection is cut and these were dropped.
        case overflowed([OutgoingMessage])
    }

    /// Appends `message` (held in the budget by the caller) under the lock, or cuts the
    /// connection when it would pass a queue cap.
    private func enqueue(_ message: OutgoingMessage, in state: inout QueueState) -> Outcome {
        guard !state.finished, !state.cut else { return .refused }
        let size = message.size
        if state.bytes + size > limits.maxQueueBytes || state.count + 1 > limits.maxQueueMessages {
            state.cut = true
            state.finished = true
            let dropped = state.drain()
            queued.store(0, ordering: .relaxed)
            return .overflowed(dropped)
        }
        state.bytes += size
        queued.store(state.bytes, ordering: .relaxed)
        state.queue.append(message)
        // An idle connection starts writing; a busy one's next write takes this too.
        let write = !state.writing
        state.writing = true
        return .queued(write: write)
    }

    /// Acts on `outcome` outside the lock: starts writing, or releases and closes.
    private func settle(_ outcome: Outcome, _ message: OutgoingMessage?) {
        switch outcome {
        case .queued(let write):
            if message != nil { budget.enforce() }
            if write { writeNext() }
        case .refused:
            if let message { budget.release(message) }
        case .overflowed(let dropped):
            if let message { budget.release(message) }
            for message in dropped { budget.release(message) }
            logger.info("sync: cut off connection \(id) to \(document): more than \(limits.maxQueueBytes) bytes or \(limits.maxQueueMessages) messages wait to be sent to it")
            closeChannel()
        }
    }

    /// Queues awareness `entries` coalesced: they join the entries waiting for this connection
    /// (a client's newer entry replaces its waiting one) and go out as one message with the next
    /// write, so however fast presence changes, at most one awareness message waits here and a
    /// slow reader gets each client's latest state (docs/sync.md §2.5, "Awareness"). When what
    /// waits passes `maxPendingAwarenessBytes` (many clients with large states), it is queued as
    /// an ordinary message, which the queue caps count: a reader that never reads is cut off as
    /// for updates, instead of holding presence without bound.
    func sendAwareness(_ entries: [AwarenessUpdate.Entry]) {
        guard !entries.isEmpty else { return }
        let (outcome, spilled) = state.withLock { state -> (Outcome, OutgoingMessage?) in
            guard !state.finished, !state.cut else { return (.refused, nil) }
            state.awareness.merge(entries)
            guard state.awareness.bytes > limits.maxPendingAwarenessBytes else {
                let write = !state.writing
                state.writing = true
                return (.queued(write: write), nil)
            }
            let message = Self.awarenessMessage(state.awareness.take())
            budget.hold(message)
            return (enqueue(message, in: &state), message)
        }
        settle(outcome, spilled)
    }

    /// `entries` as one framed awareness message.
    private static func awarenessMessage(_ entries: [AwarenessUpdate.Entry]) -> OutgoingMessage {
        OutgoingMessage(payload: SyncMessage.awareness(AwarenessUpdate(entries: entries).encoded()).encoded())
    }

    /// Hands what is queued to the sink; called by the one holder of `writing`.
    private func writeNext() {
        let budget = self.budget
        let (batch, waiters) = state.withLock { state -> ([OutgoingMessage], [CheckedContinuation<Void, Never>]) in
            var batch = state.cut ? [] : state.popBatch(limit: Self.writeBatchLimit)
            if !state.cut, !state.awareness.isEmpty, batch.count < Self.writeBatchLimit {
                let message = Self.awarenessMessage(state.awareness.take())
                budget.hold(message)
                state.bytes += message.size
                queued.store(state.bytes, ordering: .relaxed)
                batch.append(message)
            }
            state.inFlight = batch
            if batch.isEmpty { state.writing = false }
            return (batch, batch.isEmpty ? state.takeIdleWaiters() : [])
        }
        for waiter in waiters { waiter.resume() }
        guard !batch.isEmpty else { return }
        sink.write(batch) { error in
            self.written()
            if let error {
                self.cut("writing to it failed: \(error)")
                self.stopWriting()
            } else {
                self.writeNext()
            }
        }
    }

    /// After a failed write: nothing more is written; waiters are told.
    private func stopWriting() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writing = false
            return state.takeIdleWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until nothing is queued or being written (before a close frame follows what was queued).
    func allWritten() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if !state.writing && state.count == 0 && state.awareness.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Bytes waiting to be written to this connection.
    var queuedBytes: Int { queued.load(ordering: .relaxed) }

    /// Whether it was cut off (queue cap, budget, revocation, storage failure).
    var wasCut: Bool { state.withLock { $0.cut } }

    /// The batch with the sink went out (or could not): it leaves the counts, unless dropping the
    /// queue already took it out.
    private func written() {
        let messages = state.withLock { state -> [OutgoingMessage] in
            let messages = state.inFlight
            state.inFlight = []
            state.bytes = max(0, state.bytes - messages.reduce(0) { $0 + $1.size })
            queued.store(state.bytes, ordering: .relaxed)
            return messages
        }
        for message in messages { budget.release(message) }
    }

    /// No more messages: what is queued is still written, or dropped with `discarding` (the
    /// client closed: nothing is written after its close, docs/sync.md §2.5).
    func finish(discarding: Bool = false) {
        let (dropped, waiters) = state.withLock { state -> ([OutgoingMessage], [CheckedContinuation<Void, Never>]) in
            state.finished = true
            guard discarding else { return ([], []) }
            let dropped = state.drain()
            queued.store(0, ordering: .relaxed)
            return (dropped, state.takeIdleWaiters())
        }
        for message in dropped { budget.release(message) }
        for waiter in waiters { waiter.resume() }
    }

    /// Closes the connection now, dropping what is queued; `reason` (the server's) is logged.
    func cut(_ reason: String?) {
        let (dropped, first, waiters) = state.withLock { state -> ([OutgoingMessage], Bool, [CheckedContinuation<Void, Never>]) in
            let first = !state.cut
            state.cut = true
            state.finished = true
            queued.store(0, ordering: .relaxed)
            let dropped = state.drain()
            return (dropped, first, state.takeIdleWaiters())
        }
        for message in dropped { budget.release(message) }
        for waiter in waiters { waiter.resume() }
        if first, let reason { logger.info("sync: cut off connection \(id) to \(document): \(reason)") }
        closeChannel()
    }

    static func == (lhs: SyncConnection, rhs: SyncConnection) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// One encoded message on its way to one or more connections, as the whole WebSocket frame the
/// writer sends: framed once however many connections get it, so a delivery allocates nothing
/// (docs/sync.md §2.5). Its buffer is shared, so the server-wide budget counts it once while any
/// connection still holds it.
final class OutgoingMessage: Sendable {
    /// The frame: header and payload.
    let buffer: ByteBuffer
    fileprivate let holders = Atomic<Int>(0)

    /// `payload` as one final, unmasked binary frame (RFC 6455 §5.2: a server never masks).
    init(payload: [UInt8]) {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(payload.count + 10)
        buffer.writeInteger(UInt8(0x82))  // FIN, opcode 2 (binary)
        switch payload.count {
        case ..<126:
            buffer.writeInteger(UInt8(payload.count))
        case ..<65_536:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(payload.count))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(payload.count))
        }
        buffer.writeBytes(payload)
        self.buffer = buffer
    }

    var size: Int { buffer.readableBytes }
}

/// The server-wide budget for bytes waiting to be sent (docs/sync.md §2.5): every queued
/// message counted once however many connections hold it. Past it the connection with the most
/// bytes waiting — the slowest reader — is cut off, then the next, until the total fits.
final class SyncOutgoingBudget: Sendable {
    let limit: Int
    private let total = Atomic<Int>(0)
    private let connections = Mutex<[Int: SyncConnection]>([:])

    init(limit: Int) { self.limit = limit }

    /// Bytes of distinct messages waiting to be sent on this instance.
    var queuedBytes: Int { total.load(ordering: .relaxed) }

    func register(_ connection: SyncConnection) { connections.withLock { $0[connection.id] = connection } }
    func unregister(_ connection: SyncConnection) { _ = connections.withLock { $0.removeValue(forKey: connection.id) } }

    func hold(_ message: OutgoingMessage) {
        if message.holders.add(1, ordering: .relaxed).newValue == 1 { total.add(message.size, ordering: .relaxed) }
    }

    func release(_ message: OutgoingMessage) {
        if message.holders.subtract(1, ordering: .relaxed).newValue == 0 { total.subtract(message.size, ordering: .relaxed) }
    }

    /// Cuts off the slowest readers while the total is over the budget.
    func enforce() {
        while total.load(ordering: .relaxed) > limit {
            let slowest = connections.withLock { connections in
                connections.values.filter { $0.queuedBytes > 0 }.max { $0.queuedBytes < $1.queuedBytes }
            }
            guard let slowest else { return }
            slowest.cut("the server-wide budget of \(limit) bytes waiting to be sent is exceeded and it has the most waiting (\(slowest.queuedBytes) bytes)")
            unregister(slowest)
        }
    }
}
