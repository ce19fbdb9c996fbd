import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import SharedDocument
import Synchronization

/// A y-websocket client made of the codec and hummingbird-websocket's client: sends messages,
/// hands received ones to the test in order, and reports how the server closed.
final class SyncTestClient: Sendable {
    private let log: Locked<Log>
    private let writer: Locked<WebSocketOutboundWriter?>
    private let stopReading: AsyncStream<Void>.Continuation
    private let run: Task<WebSocketCloseFrame?, any Error>

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
        writer = box
        self.log = log
        run = Task {
            defer {
                log.withLock { $0.ended = true }
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
                    if let decoded = try? SyncMessage(decoding: Array(buffer.readableBytesView)) { log.withLock { $0.messages.append(decoded) } }
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
    /// when the connection ended first or nothing came within `seconds` (generous: a bound for
    /// a hung server, not a timing).
    func next(within seconds: Double = 60, where matches: @Sendable (SyncMessage) -> Bool = { _ in true }) async -> SyncMessage? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let (found, ended) = log.withLock { log -> (SyncMessage?, Bool) in
                while log.cursor < log.messages.count {
                    let message = log.messages[log.cursor]
                    log.cursor += 1
                    if matches(message) { return (message, false) }
                }
                return (nil, log.ended)
            }
            if let found { return found }
            if ended { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
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

/// A value behind a lock, shareable between tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}

struct SyncTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
