import Foundation
import StateHubServer
import StateHubTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Request heads past the decoder's limits and heads trickled a byte at a time, against the
/// server's own application on loopback (docs/server.md, "Connections"): each is answered or
/// closed, and its connection slot is freed for the next client.
@Suite(.tags(.integration)) struct HeaderLimitTests {
    static let oversized = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    @Test func anOversizedHeaderGets431AndTheConnectionIsClosed() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8)) { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.oversized)
            let head = String(decoding: try await connection.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 431"), "\(head)")
            #expect(head.lowercased().contains("connection: close"), "\(head)")
            let body = String(decoding: try await connection.readToEnd(), as: UTF8.self)
            #expect(body.contains("\"error\":\"header-too-large\""), "\(body)")
            // The idle timeout (600 s) cannot be what closed it.
            #expect(try connection.isClosedNow(), "the connection stayed open after the 431")
        }
    }

    @Test func tooManyHeaderFieldsGet431() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8)) { port in
            let fields = (0..<1_100).map { "X-F\($0): v\r\n" }.joined()
            let answer = try await RawConnection(port: port).exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(200))")
        }
    }

    @Test func aMalformedFirstHeadGets400AndTheConnectionIsClosed() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 8)) { port in
            let answer = try await RawConnection(port: port).exchange("GET /healthz HTTP/1.1\r\nHost x\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
        }
    }

    @Test func oversizedHeadersFreeTheirSlotsAtTheCap() async throws {
        // A 600 s idle timeout, past the wait's deadline: only the answer to the oversized head can free the slots.
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration(idleTimeout: .seconds(600), maxConnections: 2)) { port in
            let attackers = try (0..<2).map { _ in try RawConnection(port: port) }
            for attacker in attackers { try attacker.send(Self.oversized) }
            let answer = try await RawConnection(port: port).exchange(Self.healthz)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
            for attacker in attackers { try await attacker.waitForClose() }
        }
    }

    @Test(arguments: [false, true])
    func aTrickledHeadIsClosedAfterTheTimeoutAndFreesItsSlot(afterAFirstRequest: Bool) async throws {
        let configuration = ServerConfiguration(idleTimeout: .milliseconds(500), maxConnections: 2)
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            // The timeout runs from the connect or from the first answer, both after this.
            let start = ContinuousClock.now
            var tricklers: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: port)
                if afterAFirstRequest {
                    // A keep-alive connection: the first request is answered, the second head trickles.
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    let head = String(decoding: try await connection.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
                    #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
                }
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                tricklers.append(connection)
            }
            // A byte every 50 ms, never `\r\n\r\n`, until the server closes each: the trickle is
            // the attack under test, so it runs on real time, bounded by the wait's deadline.
            var open = Set(tricklers.indices)
            while !open.isEmpty && ContinuousClock.now - start < eventWaitDeadline {
                for index in open {
                    let closed = (try? tricklers[index].isClosedNow()) ?? true
                    if closed || (try? tricklers[index].send("a")) == nil {
                        open.remove(index)
                        #expect(ContinuousClock.now - start >= configuration.idleTimeout, "closed before the timeout")
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(open.isEmpty, "\(open.count) trickled heads stayed open for \(eventWaitDeadline)")
            let answer = try await RawConnection(port: port).exchange(Self.healthz)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
        }
    }
}
