import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Two guards on request bodies, in every HTTP connection's pipeline (docs/server.md,
/// "Connections"):
///
/// - **A body deadline.** From a request's head to its end, at most `deadline`: a client that
///   sends a large `Content-Length` and then one byte every few seconds restarts the idle
///   timeout with each byte and would hold the connection for good. Past the deadline the
///   connection is closed (the handler waiting for the body sees it end).
/// - **No draining after an answer.** When the answer ends before the request's body has been
///   read (a `401`, a `413`, `/healthz` with a body), the answer says `Connection: close`; once
///   it is written the server stops sending (a half close), throws away what the client still
///   sends for at most `linger` (so a client still writing its body can finish and read the
///   answer, instead of losing it to a reset), and closes. Before, Hummingbird read the rest of
///   the body to reach the next request — a trickled body held the connection after its `401` —
///   and with `Connection: close` the answer waited for the client's end (20 s, the idle timeout).
///
/// Time is the event loop's (`EventLoop.now`): the real clock on a server, virtual time on an
/// `EmbeddedEventLoop` in tests.
final class RequestBodyGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the rest of a body is read and thrown away after its answer.
    static let linger = TimeAmount.seconds(2)

    private let deadline: TimeAmount
    /// The close after the answer's linger.
    private var timer: Scheduled<Void>?
    /// When the body being read must have ended; `nil` between requests.
    private var bodyDeadline: NIODeadline?
    /// The check of `bodyDeadline`. Not a timer scheduled and cancelled per request (an insertion
    /// into and a removal from the event loop's timer heap for every keep-alive request): at most
    /// one is pending; it closes past the deadline, or waits for the deadline of the request read
    /// since, or ends when none is being read (docs/benchmarks.md, "Where the third went").
    private var deadlineCheck: Scheduled<Void>?
    /// A request's head has been read and its end not yet.
    private var reading = false
    /// The answer being written ends the connection.
    private var closeAfterAnswer = false
    /// The answer is written: what the client still sends is thrown away until the close.
    private var discarding = false

    init(deadline: TimeAmount) { self.deadline = deadline }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        deadlineCheck?.cancel()
        deadlineCheck = nil
    }

    private func checkDeadline(_ context: ChannelHandlerContext, at when: NIODeadline) {
        deadlineCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: when) {
            self.deadlineCheck = nil
            guard let bodyDeadline = self.bodyDeadline else { return }
            if bodyDeadline <= context.eventLoop.now {
                context.channel.close(promise: nil)
            } else {
                self.checkDeadline(context, at: bodyDeadline)
            }
        }
    }

    private func closeAll(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        timer?.cancel()
        bodyDeadline = nil
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if discarding {
            if case .end = part { context.close(promise: nil) }
            return
        }
        switch part {
        case .head:
            reading = true
            let due = context.eventLoop.now + deadline
            bodyDeadline = due
            if deadlineCheck == nil { checkDeadline(context, at: due) }
        case .body:
            break
        case .end:
            reading = false
            bodyDeadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where reading && head.status.code >= 200:
            closeAfterAnswer = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closeAfterAnswer || reading:
            closeAfterAnswer = false
            discarding = true
            closeAll(context, after: Self.linger)
            let channel = context.channel
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.whenComplete { _ in
                channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
            }
            context.write(data, promise: written)
            context.flush()
        default:
            context.write(data, promise: promise)
        }
    }
}
