import Foundation
@testable import StateHubServer
import StateHubTestSupport
import Testing

/// Slow and unread request bodies (docs/server.md,
/// "Connections"), against the server's own application on loopback with raw sockets: a body
/// trickled a byte at a time restarted the idle timeout with each byte and held its connection
/// for good, even after a `401` or a `/healthz` answer; with `Connection: close` a `413` waited
/// 20 s (the idle timeout) for the client's end; a chunked body over the cap got an empty `413`.
@Suite(.tags(.integration)) struct RequestBodyGuardTests {
    /// Sends a byte every 100 ms until the server closes the connection, and returns when it saw
    /// the close. The trickle is the attack under test, so it runs on real time; past
    /// ``eventWaitDeadline`` it throws.
    static func trickleUntilClosed(_ connection: RawConnection) async throws -> ContinuousClock.Instant {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < eventWaitDeadline {
            if (try? connection.isClosedNow()) ?? true { return .now }
            if (try? connection.send("x")) == nil { return .now }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw FloodError("waited \(eventWaitDeadline) for the server to close a trickling connection")
    }

    static func head(_ requestLine: String, token: String? = nil, extra: String = "") -> String {
        "\(requestLine) HTTP/1.1\r\nHost: x\r\n\(token.map { "Authorization: Bearer \($0)\r\n" } ?? "")\(extra)Content-Length: 8388608\r\n\r\n"
    }

    /// An answer given before the body was read ends the connection: `Connection: close`, and the
    /// server closes it (the idle timeout, 600 s, cannot be what closes it).
    @Test(arguments: ["POST /admin/console/trace-timeline", "GET /healthz"])
    func anAnswerBeforeTheBodyClosesTheConnection(requestLine: String) async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8)) { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.head(requestLine) + "x")
            let head = String(decoding: try await connection.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
            #expect(head.hasPrefix(requestLine.hasPrefix("GET") ? "HTTP/1.1 200" : "HTTP/1.1 401"), "\(head)")
            #expect(head.lowercased().contains("connection: close"), "\(head)")
            // Still trickling: the server closes after its linger (2 s); the idle timeout (600 s,
            // past the wait's deadline) cannot be what closes it.
            _ = try await Self.trickleUntilClosed(connection)
        }
    }

    /// An authorized body trickled a byte at a time is cut at the body deadline, though each byte
    /// comes well within the idle timeout.
    @Test func aTrickledBodyIsClosedAtTheDeadline() async throws {
        let configuration = ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8, requestBodyTimeout: .seconds(1))
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try RawConnection(port: port)
            let sent = ContinuousClock.now
            try connection.send(Self.head("POST /admin/console/trace-timeline", token: TestServer.token))
            // The idle timeout is 600 s: only the body deadline (1 s) can close it within the wait.
            let closed = try await Self.trickleUntilClosed(connection)
            #expect(closed - sent >= configuration.requestBodyTimeout, "closed \(closed - sent) after the head, before its body deadline")
        }
    }

    /// The body deadline is checked by one pending check per connection, not a timer per request
    /// (docs/benchmarks.md, "Where the third went"): a request read on a keep-alive connection
    /// after an answered one is still cut at its own deadline (the check left by the first
    /// request waits on for the second's).
    @Test func aTrickledBodyAfterAnAnsweredRequestIsClosedAtItsOwnDeadline() async throws {
        let configuration = ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8, requestBodyTimeout: .seconds(1))
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = String(decoding: try await connection.read(until: Array("}".utf8)), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            // Real time is the subject: the second head comes half a deadline after the first
            // request, so the first request's check falls inside the second body's trickle.
            try await Task.sleep(for: .milliseconds(500))
            let sent = ContinuousClock.now
            try connection.send(Self.head("POST /admin/console/trace-timeline", token: TestServer.token))
            let closed = try await Self.trickleUntilClosed(connection)
            #expect(closed - sent >= configuration.requestBodyTimeout, "closed \(closed - sent) after the second head, before its own deadline")
        }
    }

    /// A check left by an answered request finds no body being read and closes nothing: the next
    /// request on the connection, sent after that request's deadline, is answered.
    @Test func anAnsweredRequestsDeadlineDoesNotCutTheConnection() async throws {
        let configuration = ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8, requestBodyTimeout: .seconds(1))
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try RawConnection(port: port)
            for round in 0..<2 {
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                let answer = String(decoding: try await connection.read(until: Array("}".utf8)), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 200"), "round \(round): \(answer)")
                #expect(!answer.lowercased().contains("connection: close"), "round \(round): \(answer)")
                // Real time is the subject: past the answered request's deadline (1 s), nothing closes.
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(try !connection.isClosedNow(), "round \(round): closed after an answered request's deadline")
            }
        }
    }

    /// `Connection: close` and a body over the cap (9 MB, more than the sockets buffer): the
    /// client can send it all and read the `413` at once; the server does not wait for the idle
    /// timeout (300 s here, past the wait's deadline, so an answer at all shows it did not wait)
    /// while the client is blocked sending.
    @Test func a413WithConnectionCloseIsAnsweredAtOnce() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(300), maxConnections: 8, maxTraceBytes: 1_000)) { port in
            let connection = try RawConnection(port: port)
            let body = String(repeating: "a", count: 9 << 20)
            try connection.send("POST /admin/console/trace-timeline HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                                + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            // Sent from another thread while this one reads (one socket, one writer, one reader).
            nonisolated(unsafe) let writer = connection
            let sending = Task.detached { (try? writer.send(body)) != nil }
            let answer = String(decoding: try await connection.readToEnd(), as: UTF8.self)
            _ = await sending.value
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(120))")
            #expect(answer.contains(#""error":"too-large""#), "\(answer)")
        }
    }

    /// A chunked body over the cap gets the JSON `413`, not an empty one.
    @Test func aChunkedBodyOverTheCapGetsTheJSON413() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8, maxTraceBytes: 1_000)) { port in
            let connection = try RawConnection(port: port)
            let chunk = String(repeating: "a", count: 800)
            try connection.send("POST /admin/console/trace-timeline HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                                + "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
            let answer = String(decoding: try await connection.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(120))")
            #expect(answer.contains(#"{"error":"too-large","message":"the body exceeds 1000 bytes"}"#), "\(answer)")
        }
    }
}

/// Trace timelines are built off the event loops, a bounded number at once (on an event loop an
/// amplified trace would delay `/healthz` by 18 s): past the bound the route
/// answers `503 busy` with `Retry-After` before reading the body, and `/healthz` answers meanwhile.
@Suite(.tags(.integration)) struct TraceTimelineConcurrencyTests {
    @Test func pastTheBoundATraceGets503AndHealthzStillAnswers() async throws {
        let configuration = ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8, maxConcurrentTraceTimelines: 1)
        try await ConnectionFloodTests().withLiveServer(configuration) { port, server in
            // The slot is taken before the body is read: a body still arriving holds it.
            let holder = try RawConnection(port: port)
            try holder.send("POST /admin/console/trace-timeline HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                            + "Content-Length: 100\r\n\r\n")
            // The slot is taken inside the server as the head arrives; a client sees nothing of
            // it until it answers: the gauge is polled.
            let workers = server.traceWorkers
            await pollUntil("the holder to take the one slot") { workers.reserved == 1 }
            let busy = try await RawConnection(port: port).exchange(
                "POST /admin/console/trace-timeline HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                + "Connection: close\r\nContent-Length: 0\r\n\r\n")
            #expect(busy.hasPrefix("HTTP/1.1 503"), "\(busy.prefix(200))")
            #expect(busy.lowercased().contains("retry-after: 2") && busy.contains(#""error":"busy""#), "\(busy)")
            let health = try await RawConnection(port: port).exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(health.hasPrefix("HTTP/1.1 200"), "\(health.prefix(80))")
            // The body ends: the held request is answered and its slot given back.
            try holder.send(String(repeating: " ", count: 100))
            let head = String(decoding: try await holder.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            let after = try await RawConnection(port: port).exchange(
                "POST /admin/console/trace-timeline HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestServer.token)\r\n"
                + "Connection: close\r\nContent-Length: 0\r\n\r\n")
            #expect(after.hasPrefix("HTTP/1.1 200"), "\(after.prefix(200))")
        }
    }
}
