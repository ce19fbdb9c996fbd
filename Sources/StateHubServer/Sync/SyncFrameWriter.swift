import NIOCore
import NIOWebSocket

/// Writes a connection's queued messages as binary WebSocket frames straight to its NIO channel,
/// a batch with one flush (docs/sync.md §2.5). hummingbird-websocket's `WebSocketOutboundWriter`
/// hops to the event loop and flushes once per frame: under a burst that was one `writev` per
/// message per connection, most of the server's time. Its writer still sends the close frame,
/// after this one has ended, so frames and the close keep their order. No WebSocket extension is
/// configured (`StateHubServer+Serve.swift`), so frames need no processing on the way.
struct SyncFrameWriter: Sendable {
    let channel: any Channel

    /// Writes `messages` in order and flushes once; returns when the last one reached the socket
    /// (so a slow reader's backlog stays in its queue, where the caps see it).
    /// - Throws: the channel's error when it is closed or the write fails.
    func write(_ messages: [OutgoingMessage]) async throws {
        guard let last = messages.last else { return }
        let channel = self.channel
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.eventLoop.execute {
            for message in messages.dropLast() {
                channel.write(WebSocketFrame(fin: true, opcode: .binary, data: message.buffer), promise: nil)
            }
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .binary, data: last.buffer), promise: promise)
        }
        try await promise.futureResult.get()
    }
}
