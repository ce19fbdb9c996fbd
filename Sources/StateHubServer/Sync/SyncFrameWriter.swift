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
struct SyncFrameWriter: SyncFrameSink {
    let channel: any Channel

    /// Writes `messages` in order as one buffer and flushes, on the channel's event loop; `done`
    /// runs there when it reached the socket or failed (the channel closed, or no WebSocket frame
    /// encoder in it: `ChannelPipelineError.notFound`). A slow reader's backlog so stays in the
    /// connection's queue, where the caps see it.
    func write(_ messages: [OutgoingMessage], done: @escaping @Sendable ((any Error)?) -> Void) {
        guard let first = messages.first else { return channel.eventLoop.execute { done(nil) } }
        let channel = self.channel
        channel.eventLoop.execute {
            let encoder: ChannelHandlerContext
            do { encoder = try channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) } catch {
                done(error)
                return
            }
            // No frame after our close: a message still queued when the close went (the first
            // sync step, late under load, after a ping timeout's close) is dropped with the
            // connection, as a failed write.
            if let handler = try? channel.pipeline.syncOperations.handler(type: SyncWebSocketHandler.self), handler.sentClose {
                done(ChannelError.outputClosed)
                return
            }
            var joined = first.buffer
            if messages.count > 1 {
                joined = channel.allocator.buffer(capacity: messages.reduce(0) { $0 + $1.size })
                for message in messages { joined.writeImmutableBuffer(message.buffer) }
            }
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { result in
                switch result {
                case .success: done(nil)
                case .failure(let error): done(error)
                }
            }
            // Two calls, not `writeAndFlush`: a handler below may remove itself while it passes
            // the write on (`RequestHeadErrorWriter` does on a connection's first write), and a
            // flush handed to its removed context goes nowhere.
            encoder.write(NIOAny(joined), promise: promise)
            encoder.flush()
        }
    }
}
