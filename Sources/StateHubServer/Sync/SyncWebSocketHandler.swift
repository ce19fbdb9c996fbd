import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One sync connection served on its NIO channel, after NIO's frame decoder (docs/sync.md §2.5,
/// "Connections without a task"): it joins fragments into messages (at most the message cap:
/// `1009` past it), answers pings, pings an idle client and closes it (frame, then TCP at once)
/// when no pong came back by the next ping, replies to the client's close (checked: `answer(toClose:)`), and refuses text
/// frames (`1003`) and unmasked ones (`1002`). Messages go
/// through the connection's ``SyncConnectionInbox`` to the document in order; no task exists
/// while the connection is idle. Reads pause while the inbox holds more than it may.
final class SyncWebSocketHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let document: String
    private let grant: SyncGrant
    private let sync: SyncService
    private var context: ChannelHandlerContext?
    private var inbox: SyncConnectionInbox?
    /// A message being joined from fragments (its first frame's opcode and the bytes so far).
    private var fragments: (binary: Bool, bytes: ByteBuffer)?
    private var ping: RepeatedTask?
    private var awaitingPong = false
    /// The latest ping's payload, when its pong waits for the channel to be writable again: a
    /// client that pings and never reads would otherwise queue a pong per ping without bound
    /// (RFC 6455 §5.5.3 lets an endpoint answer only the most recent ping).
    private var pendingPong: ByteBuffer?
    /// A close frame was sent: the next read of the client's close (or the timeout) ends it.
    private var closing = false
    /// Whether a close frame was sent: nothing may follow it (RFC 6455 §5.5.1), so
    /// ``SyncFrameWriter`` drops what is written after it. Read on the channel's event loop.
    var sentClose: Bool { closing }
    /// A read the inbox held back (reads pause while it is full).
    private var heldRead = false

    /// How long a close waits for the client's answering close frame.
    static let closeTimeout = TimeAmount.seconds(10)

    init(document: String, grant: SyncGrant, sync: SyncService) {
        self.document = document
        self.grant = grant
        self.sync = sync
        sync.liveHandlers.add(1, ordering: .relaxed)
    }

    deinit { sync.liveHandlers.subtract(1, ordering: .relaxed) }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let channel = context.channel
        let eventLoop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        let inbox = SyncConnectionInbox(document: document, grant: grant, sync: sync, channel: channel,
                                        onClose: { code, reason in eventLoop.execute { bound.value.sendClose(code, reason: reason) } },
                                        onRoom: { eventLoop.execute { bound.value.resumeReads() } })
        self.inbox = inbox
        let interval = sync.configuration.pingInterval.components
        let period = TimeAmount.seconds(interval.seconds) + .nanoseconds(interval.attoseconds / 1_000_000_000)
        ping = context.eventLoop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in bound.value.pingTick() }
        inbox.start()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ping?.cancel()
        ping = nil
        // The inbox's callbacks hold this handler and the handler held the inbox: a cycle that kept
        // the handler, its channel and any half-joined message (up to the message cap) for good.
        // The inbox's own task keeps it until it has handled the end.
        inbox?.push(.end)
        inbox = nil
        fragments = nil
        self.context = nil
    }

    /// Answers the ping held while the channel could take no more (``pendingPong``).
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let payload = pendingPong, !closing {
            pendingPong = nil
            sendPong(payload, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func sendPong(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: payload)), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ping?.cancel()
        ping = nil
        // Nothing more can be written: what is queued is dropped, not written and failed one by one.
        inbox?.clientClosed()
        inbox?.push(.end)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // Nothing goes on to hummingbird-websocket's (unused) async channel after this handler.
        guard !closing else {
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        // RFC 6455 §5.1: a server must close a connection whose client sends an unmasked frame.
        guard frame.maskKey != nil else { return refuse(.protocolError, "an unmasked frame: a client masks every frame") }
        guard frame.rsv1 == false, frame.rsv2 == false, frame.rsv3 == false else {
            return refuse(.protocolError, "reserved bits are set and no extension was negotiated")
        }
        switch frame.opcode {
        case .binary, .text:
            guard fragments == nil else { return refuse(.protocolError, "a new message began inside a fragmented one") }
            receiveData(frame, binary: frame.opcode == .binary)
        case .continuation:
            guard let binary = fragments?.binary else { return refuse(.protocolError, "a continuation frame without a message") }
            receiveData(frame, binary: binary)
        case .ping:
            guard frame.fin else { return refuse(.protocolError, "a fragmented ping") }
            if context.channel.isWritable, pendingPong == nil {
                sendPong(frame.unmaskedData, context: context)
            } else {
                pendingPong = frame.unmaskedData
            }
        case .pong:
            awaitingPong = false
        case .connectionClose:
            // The client closed: nothing more is written to it (docs/sync.md §2.5), and its close is answered.
            inbox?.clientClosed()
            let code = Self.answer(toClose: frame.unmaskedData)
            closing = true
            var answer = context.channel.allocator.buffer(capacity: 2)
            answer.write(webSocketErrorCode: code)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: answer)))
                .whenComplete { _ in channel.close(promise: nil) }
        default:
            refuse(.protocolError, "unknown opcode")
        }
    }

    /// The code that answers a client's close frame with `body`: its own code when the frame is
    /// valid (none: `1000`); `1002` for a one-byte body or a code no close frame may carry (RFC 6455
    /// §7.4: under 1000, 1004–1006, 1015 and up to 2999 unassigned, 5000 and more), `1007` for a
    /// reason that is no UTF-8 (§5.5.1).
    static func answer(toClose body: ByteBuffer) -> WebSocketErrorCode {
        var body = body
        guard body.readableBytes != 0 else { return .normalClosure }
        guard let raw = body.readInteger(as: UInt16.self) else { return .protocolError }
        let valid = ((1000...1014).contains(raw) && ![1004, 1005, 1006].contains(raw)) || (3000...4999).contains(raw)
        guard valid else { return .protocolError }
        guard String(validating: body.readableBytesView, as: UTF8.self) != nil else { return .dataInconsistentWithMessage }
        return WebSocketErrorCode(codeNumber: Int(raw))
    }

    private func receiveData(_ frame: WebSocketFrame, binary: Bool) {
        var data = frame.unmaskedData
        if var joined = fragments?.bytes {
            fragments = nil
            joined.writeBuffer(&data)
            data = joined
        }
        guard data.readableBytes <= sync.configuration.maxMessageBytes else {
            fragments = nil
            return refuse(.messageTooLarge, "a message past the \(sync.configuration.maxMessageBytes)-byte cap")
        }
        guard frame.fin else {
            fragments = (binary, data)
            return
        }
        if binary {
            inbox?.push(.message(data))
        } else {
            inbox?.push(.refuse(SyncProtocolError.textFrame.webSocketCode, SyncProtocolError.textFrame.closeReason, logged: "\(SyncProtocolError.textFrame)"))
        }
    }

    /// A frame-level problem: closed after what was queued, like a refused message.
    private func refuse(_ code: WebSocketErrorCode, _ reason: String) {
        inbox?.push(.refuse(code, reason, logged: reason))
    }

    /// Sends a close frame (after what the inbox waited to be written) and closes once the client
    /// answers or ``closeTimeout`` passes; with `awaitingAnswer` false, as soon as the frame is
    /// written (a client that answered no ping will answer no close either).
    fileprivate func sendClose(_ code: WebSocketErrorCode, reason: String, awaitingAnswer: Bool = true) {
        guard let context, !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        let channel = context.channel
        let written = context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
        if awaitingAnswer {
            context.eventLoop.scheduleTask(in: Self.closeTimeout) { channel.close(promise: nil) }
        } else {
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Every ping interval: a ping, or the close when the last one got no pong.
    fileprivate func pingTick() {
        guard let context, !closing else { return }
        if awaitingPong {
            sync.logger.info("sync: closed a connection to \(document): no pong within \(sync.configuration.pingInterval)")
            sendClose(.goingAway, reason: "Ping timeout", awaitingAnswer: false)
            return
        }
        awaitingPong = true
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(string: "statehub"))),
                              promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if inbox?.isFull == true {
            heldRead = true
        } else {
            context.read()
        }
    }

    fileprivate func resumeReads() {
        guard heldRead, let context else { return }
        heldRead = false
        context.read()
    }
}
