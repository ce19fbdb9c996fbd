import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers a first request head the HTTP decoder refuses (`431` past the header size limits,
/// `400` for anything else malformed) and closes the connection.
///
/// With the WebSocket upgrade in the pipeline, a decoder error on the first head reaches neither
/// Hummingbird nor the upgrade handler: the decoder stops reading, nothing answers and nothing
/// closes, and ``FirstRequestHeadTimeout`` has already let go once the head's `\r\n\r\n` went by.
/// Such a request would hold a connection slot for good (slowloris against the cap). This
/// handler sits after the upgrade handler, so the decoder's error reaches it. Once the
/// connection writes its first answer, later heads are Hummingbird's (`400` and a close), and
/// the handler removes itself (docs/server.md, "Connections").
final class RequestHeadErrorWriter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any
    typealias OutboundOut = HTTPServerResponsePart

    private var answered = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard !answered else { return }
        answered = true
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !answered, let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        answered = true
        let answer = Self.answer(to: parserError)
        var headers = HTTPHeaders()
        for field in answer.headers { headers.add(name: field.name.canonicalName, value: field.value) }
        let body = answer.body
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: answer.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// `431` for a head past the decoder's size or count limits, `400` for any other malformed head.
    static func answer(to error: HTTPParserError) -> ServerError {
        switch error {
        case .headerOverflow:
            ServerError(.requestHeaderFieldsTooLarge, "header-too-large",
                        "the request head exceeds the server's limits (80 KiB of fields, 1,000 fields)")
        default:
            ServerError(.badRequest, "bad-request", "the request head is malformed: \(error)")
        }
    }
}
