import NIOCore
import SharedDocument
import Synchronization

/// One WebSocket client of a document: who it is, what it may do, and its own bounded queue of
/// messages to send, drained by its own writer (docs/sync.md §2.5). A broadcast only appends to
/// queues, so a slow client never makes anyone else wait; a client whose queue passes the cap
/// is cut off.
final class SyncConnection: Sendable, Hashable {
    let id: Int
    let access: DocumentAccess
    /// The id of the token it connected with (`nil`: an admin token), to close it when revoked.
    let tokenID: Int?
    /// Whether it asked for acknowledgements (`?ack=1`, docs/sync.md §1.4).
    let wantsAcknowledgements: Bool
    let limits: Limits
    /// Closes the TCP connection at once: a client that does not read cannot receive a close frame.
    private let closeChannel: @Sendable () -> Void
    let outbound: AsyncStream<ByteBuffer>
    private let continuation: AsyncStream<ByteBuffer>.Continuation
    private let state = Mutex(QueueState())

    struct Limits: Sendable {
        var maxQueueBytes: Int
        var maxQueueMessages: Int
    }

    private struct QueueState {
        var bytes = 0
        var messages = 0
        var overflowed = false
    }

    init(id: Int, access: DocumentAccess, tokenID: Int?, wantsAcknowledgements: Bool, limits: Limits,
         closeChannel: @escaping @Sendable () -> Void) {
        self.id = id
        self.access = access
        self.tokenID = tokenID
        self.wantsAcknowledgements = wantsAcknowledgements
        self.limits = limits
        self.closeChannel = closeChannel
        (outbound, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .unbounded)
    }

    /// Queues `message`; past the caps the connection is closed instead and nothing more is queued.
    func send(_ message: SyncMessage) { send(bytes: message.encoded()) }

    func send(bytes: [UInt8]) { send(buffer: ByteBuffer(bytes: bytes)) }

    /// Queues `buffer` (shared, not copied, when one message goes to many connections).
    func send(buffer: ByteBuffer) {
        let size = buffer.readableBytes
        let accepted = state.withLock { state -> Bool in
            guard !state.overflowed else { return false }
            if state.bytes + size > limits.maxQueueBytes || state.messages + 1 > limits.maxQueueMessages {
                state.overflowed = true
                return false
            }
            state.bytes += size
            state.messages += 1
            return true
        }
        if accepted {
            continuation.yield(buffer)
        } else {
            // Only an overflow refuses: the connection is cut (repeated calls are harmless).
            continuation.finish()
            closeChannel()
        }
    }

    /// Whether the queue overflowed (the connection was cut for being slow).
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Called by the writer after a message went out.
    func sent(_ count: Int) {
        state.withLock { state in
            state.bytes -= count
            state.messages -= 1
        }
    }

    /// No more messages: the writer ends after what is queued.
    func finish() { continuation.finish() }

    /// Closes the connection now (storage failed, token revoked).
    func close() {
        continuation.finish()
        closeChannel()
    }

    static func == (lhs: SyncConnection, rhs: SyncConnection) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
