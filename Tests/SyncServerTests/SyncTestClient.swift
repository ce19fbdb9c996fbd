import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import SharedDocument
import StateHubTestSupport
import Testing

/// A y-websocket client made of the codec and hummingbird-websocket's client: sends messages,
/// hands received ones to the test in order, and reports how the server closed.
final class SyncTestClient: Sendable {
    private let log: Locked<Log>
    private let writer: Locked<WebSocketOutboundWriter?>
    private let stopReading: AsyncStream<Void>.Continuation
    private let run: Task<WebSocketCloseFrame?, any Error>
    /// A tick for each message received and for the end of the connection.
    private let arrivals: AsyncStream<Void>

    private struct Log {
        var messages: [SyncMessage] = []
        var cursor = 0
        var ended = false
    }

    /// Connects to `/sync/{document}`; `reading: false` makes a client that never reads (a slow one).
    static func connect(port: Int, document: String, token: String?, acknowledgements: Bool = false,
                        reading: Bool = true) async throws -> SyncTestClient {
        var query: [String] = []
        if let token { query.append("token=\(token)") }
        if acknowledgements { query.append("ack=1") }
        let url = "ws://127.0.0.1:\(port)/sync/\(document)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let (connected, connectedSink) = AsyncStream.makeStream(of: Bool.self)
        let client = SyncTestClient(url: url, reading: reading, connected: connectedSink)
        var iterator = connected.makeAsyncIterator()
        guard await iterator.next() == true else {
            let frame = try? await client.run.value
            throw SyncTestError("could not connect to \(url): \(String(describing: frame))")
        }
        return client
    }

    private init(url: String, reading: Bool, connected: AsyncStream<Bool>.Continuation) {
        let (stop, stopSink) = AsyncStream.makeStream(of: Void.self)
        stopReading = stopSink
        let box = Locked<WebSocketOutboundWriter?>(nil)
        let log = Locked(Log())
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        writer = box
        self.log = log
        self.arrivals = arrivals
        run = Task {
            defer {
                log.withLock { $0.ended = true }
                arrived.yield()
                arrived.finish()
                connected.yield(false)
                connected.finish()
            }
            var configuration = WebSocketClientConfiguration()
            configuration.maxFrameSize = 16 << 20
            return try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "sync-test-client")) { inbound, outbound, _ in
                box.withLock { $0 = outbound }
                connected.yield(true)
                connected.finish()
                guard reading else {
                    for await _ in stop {}
                    return
                }
                for try await message in inbound.messages(maxSize: 16 << 20) {
                    guard case .binary(let buffer) = message else { continue }
                    if let decoded = try? SyncMessage(decoding: Array(buffer.readableBytesView)) {
                        log.withLock { $0.messages.append(decoded) }
                        arrived.yield()
                    }
                }
            }
        }
    }

    func send(_ message: SyncMessage) async throws { try await send(bytes: message.encoded()) }

    func send(bytes: [UInt8]) async throws {
        guard let writer = writer.withLock({ $0 }) else { throw SyncTestError("not connected") }
        try await writer.write(.binary(ByteBuffer(bytes: bytes)))
    }

    func sendText(_ text: String) async throws {
        guard let writer = writer.withLock({ $0 }) else { throw SyncTestError("not connected") }
        try await writer.write(.text(text))
    }

    /// The next received message that `matches` (others before it are passed over), or `nil`
    /// when the connection ended first. Past ``eventWaitDeadline`` it records an issue that
    /// names what it waited for, and returns `nil`.
    func next(where matches: @escaping @Sendable (SyncMessage) -> Bool = { _ in true },
              sourceLocation: SourceLocation = #_sourceLocation) async -> SyncMessage? {
        let found = Locked<SyncMessage?>(nil)
        let log = log
        await waitUntil("a matching sync message", notifiedBy: arrivals,
                        observed: { "\(log.withLock { $0.messages.count }) messages, ended: \(log.withLock { $0.ended })" },
                        sourceLocation: sourceLocation) {
            log.withLock { log -> Bool in
                while log.cursor < log.messages.count {
                    let message = log.messages[log.cursor]
                    log.cursor += 1
                    if matches(message) {
                        found.withLock { $0 = message }
                        return true
                    }
                }
                return log.ended
            }
        }
        return found.withLock { $0 }
    }

    /// Whether the connection has ended.
    var hasEnded: Bool { log.withLock { $0.ended } }

    /// Every message received so far.
    var all: [SyncMessage] { log.withLock { $0.messages } }

    /// Closes from this side and waits for the server's close.
    func close() async {
        if let writer = writer.withLock({ $0 }) { try? await writer.close(.normalClosure, reason: nil) }
        stopReading.finish()
        _ = try? await run.value
    }

    /// How the server closed the connection (waits for it).
    func closeFrame() async -> WebSocketCloseFrame? {
        (try? await run.value) ?? nil
    }
}

struct SyncTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
