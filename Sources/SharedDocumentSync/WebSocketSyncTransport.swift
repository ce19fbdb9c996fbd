import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// Connections over real WebSockets (hummingbird-websocket's client, on Linux and Apple
/// platforms alike); `wss://` uses TLS with the system's trust roots.
public struct WebSocketSyncTransport: SyncTransport {
    /// The largest message accepted from the server. The server keeps a document under 8 MiB
    /// (docs/sync.md §2.5), so its largest message, a whole document, fits.
    public var maximumMessageBytes: Int
    public var logger: Logger

    public init(maximumMessageBytes: Int = 16 << 20, logger: Logger = Logger(label: "statehub.sync.client")) {
        self.maximumMessageBytes = maximumMessageBytes
        self.logger = logger
    }

    public func connect(to url: String) async throws -> any SyncConnection {
        try await WebSocketSyncConnection.open(url: url, maximumMessageBytes: maximumMessageBytes, logger: logger)
    }
}

/// hummingbird-websocket's client runs a connection inside one closure: this keeps that closure
/// running in a task and bridges it to streams, one queue each way.
final class WebSocketSyncConnection: SyncConnection {
    let inbound: AsyncThrowingStream<[UInt8], any Error>
    private let outbound: AsyncStream<Outgoing>.Continuation
    private let running: Task<Void, Never>

    enum Outgoing: Sendable {
        case message([UInt8])
        case close
    }

    static func open(url: String, maximumMessageBytes: Int, logger: Logger) async throws -> WebSocketSyncConnection {
        let (opened, openedSink) = AsyncStream.makeStream(of: (any Error)?.self)
        let connection = WebSocketSyncConnection(url: url, maximumMessageBytes: maximumMessageBytes, logger: logger, opened: openedSink)
        var iterator = opened.makeAsyncIterator()
        switch await iterator.next() {
        case .some(.none): return connection
        case .some(.some(let error)): throw error
        case .none: throw SyncConnectionClosed(code: nil, reason: "the connection ended before it opened")
        }
    }

    private init(url: String, maximumMessageBytes: Int, logger: Logger, opened: AsyncStream<(any Error)?>.Continuation) {
        let (inbound, inboundSink) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let (outgoing, outgoingSink) = AsyncStream.makeStream(of: Outgoing.self)
        self.inbound = inbound
        self.outbound = outgoingSink
        running = Task {
            var configuration = WebSocketClientConfiguration()
            configuration.maxFrameSize = maximumMessageBytes
            do {
                let frame = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { messages, writer, _ in
                    opened.yield(nil)
                    opened.finish()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in messages.messages(maxSize: maximumMessageBytes) {
                                if case .binary(let buffer) = message { inboundSink.yield(Array(buffer.readableBytesView)) }
                            }
                        }
                        group.addTask {
                            for await item in outgoing {
                                switch item {
                                case .message(let bytes): try await writer.write(.binary(ByteBuffer(bytes: bytes)))
                                case .close:
                                    try await writer.close(.normalClosure, reason: nil)
                                    return
                                }
                            }
                        }
                        // Whichever side ends first (the server closed, or we did) ends the other.
                        try await group.next()
                        group.cancelAll()
                    }
                }
                if let frame, frame.closeCode != .normalClosure {
                    inboundSink.finish(throwing: SyncConnectionClosed(code: frame.closeCode.number, reason: frame.reason ?? ""))
                } else {
                    inboundSink.finish()
                }
            } catch {
                let closed = SyncConnectionClosed(code: nil, reason: "\(error)")
                inboundSink.finish(throwing: closed)
                // Heard only when connecting failed before the handler ran (then it was never opened).
                opened.yield(closed)
            }
            opened.yield(SyncConnectionClosed(code: nil, reason: "the connection to \(url) ended before it opened"))
            opened.finish()
            outgoingSink.finish()
        }
    }

    func send(_ message: [UInt8]) { outbound.yield(.message(message)) }

    func close() {
        outbound.yield(.close)
        outbound.finish()
    }

    deinit { running.cancel() }
}

extension WebSocketErrorCode {
    /// The code's number as sent on the wire.
    var number: Int {
        switch self {
        case .normalClosure: 1000
        case .goingAway: 1001
        case .protocolError: 1002
        case .unacceptableData: 1003
        case .dataInconsistentWithMessage: 1007
        case .policyViolation: 1008
        case .messageTooLarge: 1009
        case .missingExtension: 1010
        case .unexpectedServerError: 1011
        case .unknown(let code): Int(code)
        }
    }
}
