import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Closes a connection whose first request head has not ended (`\r\n\r\n`) within the idle
/// timeout. With the WebSocket upgrade in the pipeline, Hummingbird adds its idle handler only
/// once the first head has been read and the upgrade decided, so without this a client that
/// connects and says nothing, or never ends its first head, would hold a connection forever
/// (docs/server.md, "Connections"). Removes itself once the first head has ended; later idleness
/// is Hummingbird's (HTTP) or the WebSocket ping's.
final class FirstRequestHeadTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes read, to find a `\r\n\r\n` split across reads.
    private var tail: [UInt8] = []

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func schedule(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let bytes = tail + buffer.readableBytesView
        let ended = bytes.count >= 4 && (0...(bytes.count - 4)).contains { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
        tail = Array(bytes.suffix(3))
        context.fireChannelRead(data)
        if ended {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

/// Hummingbird's HTTP/1 channel with the WebSocket upgrade, behind ``FirstRequestHeadTimeout``
/// and ``UpgradeRefusalWriter``, with ``RequestHeadErrorWriter`` after it.
struct GuardedWebSocketUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let firstHeadTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(UpgradeRefusalWriter())
            try channel.pipeline.syncOperations.addHandler(FirstRequestHeadTimeout(timeout: firstHeadTimeout))
        }.flatMap { inner.setup(channel: channel, logger: logger) }.flatMapThrowing { value in
            // After the upgrade handler: the first head's decoder errors end there.
            try channel.pipeline.syncOperations.addHandler(RequestHeadErrorWriter())
            try channel.pipeline.syncOperations.addHandler(SyncUpgradeTakeover())
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        // A sync connection is served on its channel, with no task (docs/sync.md §2.5).
        if await SyncUpgradeTakeover.tookOver(value.channel, keeping: value) { return }
        await inner.handle(value: value, logger: logger)
    }
}
