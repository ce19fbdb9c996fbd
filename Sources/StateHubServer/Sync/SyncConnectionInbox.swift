import Logging
import NIOCore
import NIOWebSocket
import SharedDocument
import Synchronization

/// What a ``SyncWebSocketHandler`` received, handed to its document in order (docs/sync.md §2.5,
/// "Connections without a task"). A task runs only while events wait and ends when the inbox is
/// empty, so an idle connection holds no task; the document's actor still sees one connection's
/// messages one at a time, in the order they arrived.
final class SyncConnectionInbox: Sendable {
    enum Event: Sendable {
        /// A whole binary message.
        case message(ByteBuffer)
        /// Close with `code` and `reason` after what is queued has been written; `logged` says why.
        case refuse(WebSocketErrorCode, String, logged: String)
        /// The channel closed.
        case end
    }

    /// Reads pause while more than this many messages, or bytes, wait.
    static let maxWaitingMessages = 64
    static let maxWaitingBytes = 1 << 20

    let connection: SyncConnection
    private let document: String
    private let sync: SyncService
    private let onClose: @Sendable (WebSocketErrorCode, String) -> Void
    private let onRoom: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var events: [Event] = []
        var head = 0
        var bytes = 0
        var running = false
        var host: SyncDocumentHost?
        /// Refused or ended: later messages are dropped.
        var done = false
        var ended = false

        var count: Int { events.count - head }
    }

    init(document: String, grant: SyncGrant, sync: SyncService, channel: any Channel,
         onClose: @escaping @Sendable (WebSocketErrorCode, String) -> Void, onRoom: @escaping @Sendable () -> Void) {
        self.document = document
        self.sync = sync
        self.onClose = onClose
        self.onRoom = onRoom
        connection = SyncConnection(
            id: sync.hub.nextConnectionID(), document: document, access: grant.access, tokenID: grant.tokenID,
            wantsAcknowledgements: grant.acknowledgements,
            limits: sync.configuration.connectionLimits,
            budget: sync.budget, logger: sync.logger, sink: SyncFrameWriter(channel: channel),
            closeChannel: { channel.close(promise: nil) })
    }

    /// Joins the document (its greeting is queued at once), then handles what arrived meanwhile.
    func start() {
        sync.budget.register(connection)
        let onClose = self.onClose
        sync.registerOpen(connection.id) { onClose(.goingAway, "the server is shutting down") }
        state.withLock { $0.running = true }
        Task { await self.run(attaching: true) }
    }

    /// Whether reads should pause.
    var isFull: Bool {
        state.withLock { $0.count > Self.maxWaitingMessages || $0.bytes > Self.maxWaitingBytes }
    }

    func push(_ event: Event) {
        let start = state.withLock { state -> Bool in
            if state.ended { return false }
            if case .end = event { state.ended = true }
            if case .message(let buffer) = event { state.bytes += buffer.readableBytes }
            state.events.append(event)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { Task { await self.run(attaching: false) } }
    }

    /// The client's close frame arrived: nothing more is written to it.
    func clientClosed() { connection.finish(discarding: true) }

    private func next() -> Event? {
        let (event, room) = state.withLock { state -> (Event?, Bool) in
            guard state.head < state.events.count else {
                state.events = []
                state.head = 0
                state.running = false
                return (nil, true)
            }
            let event = state.events[state.head]
            state.head += 1
            if case .message(let buffer) = event { state.bytes -= buffer.readableBytes }
            if state.head > 32 && state.head * 2 > state.events.count {
                state.events.removeFirst(state.head)
                state.head = 0
            }
            return (event, state.count <= Self.maxWaitingMessages && state.bytes <= Self.maxWaitingBytes)
        }
        if room { onRoom() }
        return event
    }

    private func run(attaching: Bool) async {
        if attaching { await attach() }
        while let event = next() {
            await handle(event)
        }
    }

    private func attach() async {
        do {
            let host = try await sync.hub.attach(document, connection)
            state.withLock { $0.host = host }
        } catch {
            sync.logger.error("sync: loading \(document) failed: \(error)")
            state.withLock { $0.done = true }
            onClose(SyncProtocolError.storage.webSocketCode, "the document could not be loaded")
        }
    }

    private func handle(_ event: Event) async {
        let (host, done) = state.withLock { ($0.host, $0.done) }
        switch event {
        case .message(let buffer):
            guard !done, let host else { return }
            let decoded: SyncMessage
            do { decoded = try SyncMessage(decoding: Array(buffer.readableBytesView)) } catch {
                return await refuse(SyncProtocolError.malformedMessage("\(error)"))
            }
            do throws(SyncProtocolError) { try await host.receive(decoded, from: connection) } catch {
                return await refuse(error)
            }
            // Clients that send faster than storage commits wait here, their reads paused behind this.
            await host.waitForRoom()
        case .refuse(let code, let reason, let logged):
            guard !done else { return }
            await close(code, reason, logged: logged)
        case .end:
            state.withLock { $0.done = true; $0.host = nil }
            if let host { await sync.hub.detach(document, host, connection) }
            // Whatever is still queued (a writer that failed, a client gone) is dropped and leaves the budget.
            connection.cut(nil)
            sync.budget.unregister(connection)
            sync.unregisterOpen(connection.id)
        }
    }

    private func refuse(_ error: SyncProtocolError) async {
        await close(error.webSocketCode, error.closeReason, logged: "\(error)")
    }

    /// The close frame (sent on the channel's event loop) follows what was queued before it (docs/sync.md §2.5).
    private func close(_ code: WebSocketErrorCode, _ reason: String, logged: String) async {
        state.withLock { $0.done = true }
        sync.logger.info("sync: closed a connection to \(document): \(logged)")
        connection.finish()
        await connection.allWritten()
        onClose(code, reason)
    }
}
