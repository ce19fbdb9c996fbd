import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Gives a refused WebSocket upgrade the same JSON answer a plain `GET /sync/{document}` gets
/// (401, 403, 400 or 503 with `{"error", "message"}`), where hummingbird-websocket would write
/// an empty `400` (docs/sync.md §1.1).
///
/// hummingbird-websocket turns a throwing upgrade decision into "do not upgrade" and then writes
/// its own empty `400` and closes; the error never reaches a responder, and the types that
/// decide that are not public. So the decision records its `ServerError` in this handler's
/// ``Slot`` (found through the channel, ``record(_:on:)``), and the handler, which sits
/// first in the pipeline, replaces the bytes of that one answer with the full response.
/// Only the first request of a connection can ask for an upgrade, so the next write after a
/// refusal is that answer; the connection closes after it. After a first answer that is not a
/// refusal the handler removes itself.
final class UpgradeRefusalWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The response to write instead of the empty `400`, set from the upgrade decision's task.
    final class Slot: Sendable {
        fileprivate let response = Mutex<ByteBuffer?>(nil)
    }

    let slot = Slot()
    /// Whether the refusal was written: later parts of the empty answer are dropped.
    private var replaced = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if replaced {
            promise?.succeed()
            return
        }
        guard let response = slot.response.withLock({ $0 }) else {
            // The first answer is not a refusal: no later one can be, so every other write of
            // the connection passes without this handler.
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        replaced = true
        context.write(wrapOutboundOut(response), promise: promise)
    }

    /// Records `error` as the answer to the refused upgrade on `channel` (no-op on a channel
    /// without this handler). Returns once the handler holds it, before the upgrade is refused.
    static func record(_ error: ServerError, on channel: any Channel) async {
        let response = httpResponse(error)
        _ = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: UpgradeRefusalWriter.self).slot
        }.get().response.withLock { $0 = response }
    }

    /// An HTTP/1.1 response with `error`'s status, headers and JSON body, closing the connection.
    static func httpResponse(_ error: ServerError) -> ByteBuffer {
        let body = error.body
        var head = "HTTP/1.1 \(error.status.code) \(error.status.reasonPhrase)\r\n"
        for field in error.headers { head += "\(field.name.canonicalName): \(field.value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var buffer = ByteBuffer(string: head)
        buffer.writeBytes(body)
        return buffer
    }
}
