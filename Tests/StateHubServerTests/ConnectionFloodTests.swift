import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StateHubServer
import StateHubTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The connection guards (docs/server.md, "Connections") against a real server on loopback:
/// unfinished requests are closed after the idle timeout, and past the connection cap new
/// clients wait in the backlog instead of exhausting descriptors, then are answered.
@Suite(.tags(.integration)) struct ConnectionFloodTests {
    /// Runs the server's own application (the one `statehub serve` runs) on 127.0.0.1, any port.
    func withLiveServer(_ configuration: ServerConfiguration, _ body: @Sendable (Int) async throws -> Void) async throws {
        try await withLiveServer(configuration) { port, _ in try await body(port) }
    }

    /// The same, with the server itself (its sync service's counts).
    func withLiveServer(_ configuration: ServerConfiguration, _ body: @Sendable (Int, StateHubServer) async throws -> Void) async throws {
        let test = try await TestServer.sqlite(configuration: configuration)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = test.server.makeApplication(router: test.server.makeRouter(), host: "127.0.0.1", port: 0,
                                              logger: Logger(label: "flood-test"),
                                              onRunning: { port in portSink.yield(port); portSink.finish() })
        // Stopped by graceful shutdown, never by cancelling: cancelling the accept loop while an
        // accepted connection is still queued traps in NIO (docs/server.md, "Connections").
        let services = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "flood-test")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw FloodError("server did not start") }
            do { try await body(port, test.server) } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        await test.close()
    }

    @Test func unfinishedRequestsAreClosedAfterTheIdleTimeoutAndTheServerStillAnswers() async throws {
        try await withLiveServer(ServerConfiguration(idleTimeout: .milliseconds(500), maxConnections: 200)) { port in
            var stalled: [RawConnection] = []
            for index in 0..<60 {
                let connection = try RawConnection(port: port)
                switch index % 3 {
                case 0: try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  // head never ends
                case 1: try connection.send("POST /admin/apps/a/versions HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{\"b")  // body stalls
                default: break  // connects and says nothing
                }
                stalled.append(connection)
            }
            for connection in stalled {
                try await connection.waitForClose()
            }
            let answer = try await RawConnection(port: port).exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
        }
    }

    @Test func pastTheCapNewClientsWaitAndAreAnsweredOnceStalledOnesAreClosed() async throws {
        try await withLiveServer(ServerConfiguration(idleTimeout: .milliseconds(500), maxConnections: 4)) { port in
            var stalled: [RawConnection] = []
            // The cap is checked between the accept loop's batches of up to 4 (docs/server.md,
            // "Connections"), so up to 3 past it can be accepted: 4 + 3 stalled fill it for sure.
            for _ in 0..<(4 + 3) {
                let connection = try RawConnection(port: port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                stalled.append(connection)
            }
            // The next client waits in the backlog until the timeout frees a place, then is served.
            let answer = try await RawConnection(port: port).exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
            // Order, not time: under the cap the answer can only come once a stalled one is closed.
            #expect(try stalled.contains { try $0.isClosedNow() }, "answered while the cap was full")
            for connection in stalled { try await connection.waitForClose() }
        }
    }
}

struct FloodError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking TCP client on a raw socket, so a test can send part of a request and stop.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FloodError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(descriptor); throw FloodError("connect: errno \(errno)") }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    /// Reads until the peer closes. Past ``eventWaitDeadline`` it throws.
    func waitForClose() async throws {
        let start = ContinuousClock.now
        while true {
            try await waitReadable("the server to close the connection", since: start)
            if try isClosedNow() { return }
        }
    }

    /// Waits until the socket has bytes or its end to read, blocked in `poll` on a thread of its
    /// own: a blocked thread of the small cooperative pool would starve the server's own accept
    /// loop in this process. Past ``eventWaitDeadline`` (counted from `start`) it throws with `what`.
    private func waitReadable(_ what: String, since start: ContinuousClock.Instant) async throws {
        let descriptor = descriptor
        let left = eventWaitDeadline - (ContinuousClock.now - start)
        let milliseconds = max(0, left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
        let readable = try await offThePool { () throws -> Bool in
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let result = poll(&poller, 1, Int32(clamping: milliseconds))
            if result < 0 && errno != EINTR { throw FloodError("poll: errno \(errno)") }
            return result > 0
        }
        if !readable && ContinuousClock.now - start >= eventWaitDeadline {
            throw FloodError("waited \(eventWaitDeadline) for \(what)")
        }
    }

    func send(bytes: [UInt8]) throws {
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw FloodError("send: errno \(errno)") }
    }

    /// Reads until `marker` has arrived (the bytes up to and including it, and no byte after).
    func read(until marker: [UInt8]) async throws -> [UInt8] {
        let start = ContinuousClock.now
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            try await waitReadable("\(String(decoding: marker, as: UTF8.self).debugDescription) after \(received.count) bytes: "
                                   + String(decoding: received, as: UTF8.self), since: start)
            while true {
                let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                guard count == 1 else {
                    throw FloodError("closed before \(marker) in \(String(decoding: received, as: UTF8.self))")
                }
                received.append(byte)
                if received.count >= marker.count && Array(received.suffix(marker.count)) == marker { return received }
            }
        }
    }

    /// Reads until the peer closes, or until `isEnough` says what has arrived is all the caller
    /// waits for (a whole close frame, say). Past ``eventWaitDeadline`` it throws.
    func readToEnd(until isEnough: ([UInt8]) -> Bool = { _ in false }) async throws -> [UInt8] {
        let start = ContinuousClock.now
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isEnough(received) {
            try await waitReadable("the server's end after \(received.count) bytes: \(String(decoding: received.prefix(200), as: UTF8.self))",
                                   since: start)
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// Whether the peer has closed, without waiting. Whatever it wrote before closing (an error
    /// answer to the unfinished request) is read and dropped: closed is the end of the stream.
    func isClosedNow() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            if count == 0 { return true }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            if errno == ECONNRESET { return true }
            throw FloodError("recv: errno \(errno)")
        }
    }

    /// Sends a whole request and reads the answer until the server closes.
    func exchange(_ request: String) async throws -> String {
        try send(request)
        return String(decoding: try await readToEnd(), as: UTF8.self)
    }
}
