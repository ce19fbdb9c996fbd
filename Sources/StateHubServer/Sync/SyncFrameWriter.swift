import NIOCore
import NIOWebSocket

/// Writes a connection's queued messages, already framed (``OutgoingMessage``), straight to its
/// NIO channel: a batch is one buffer and one flush (docs/sync.md §2.5). hummingbird-websocket's
/// `WebSocketOutboundWriter` hops to the event loop, encodes (allocating a header buffer) and
/// flushes once per frame: under a burst that was one `writev` per message per connection, most
/// of the server's time. The buffer enters the pipeline below NIO's `WebSocketFrameEncoder`,
/// which has nothing left to do for it. hummingbird-websocket's own frames (pings, the close)
/// still pass through that encoder; the close is sent only after this writer has ended, so frames
/// and the close keep their order. No WebSocket extension is configured
/// (`StateHubServer+Serve.swift`), so frames need no processing on the way.
struct SyncFrameWriter: Sendable {
    let channel: any Channel

    /// Writes `messages` in order as one buffer and flushes; returns when it reached the socket
    /// (so a slow reader's backlog stays in its queue, where the caps see it).
    /// - Throws: the channel's error when it is closed or the write fails; `ChannelPipelineError.notFound`
    ///   when the channel has no WebSocket frame encoder (it is not an upgraded WebSocket).
    func write(_ messages: [OutgoingMessage]) async throws {
        guard let first = messages.first else { return }
        let channel = self.channel
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.eventLoop.execute {
            let encoder: ChannelHandlerContext
            do { encoder = try channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) } catch {
                promise.fail(error)
                return
            }
            var joined = first.buffer
            if messages.count > 1 {
                joined = channel.allocator.buffer(capacity: messages.reduce(0) { $0 + $1.size })
                for message in messages { joined.writeImmutableBuffer(message.buffer) }
            }
            // Two calls, not `writeAndFlush`: a handler below may remove itself while it passes
            // the write on (`RequestHeadErrorWriter` does on a connection's first write), and a
            // flush handed to its removed context goes nowhere.
            encoder.write(NIOAny(joined), promise: promise)
            encoder.flush()
        }
        try await promise.futureResult.get()
    }
}
