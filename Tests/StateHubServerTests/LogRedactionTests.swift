import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
@testable import StateHubServer
import Synchronization
import Testing

/// Secrets never reach the log at any level (docs/server.md, "Logging").
@Suite(.tags(.integration)) struct LogRedactionTests {
    /// Every line a logger wrote, message and metadata, as text.
    final class CapturedLines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct CapturingLogHandler: LogHandler {
        let captured: CapturedLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            captured.lines.withLock { $0.append(([event.level.rawValue, event.message.description] + metadata).joined(separator: " ")) }
        }
    }

    static let documentToken = "shd_DocumentSecret0123456789abcdefABCDEF_-x"
    static let adminToken = "shk_AdminSecret0123456789abcdefABCDEF_-xyz"
    static let plainSecret = "plain-secret-value-42"

    @Test func tokensInQueriesAndAuthorizationNeverReachTheLogAtTrace() async throws {
        let captured = CapturedLines()
        var logger = Logger(label: "redaction-test") { _ in CapturingLogHandler(captured: captured) }
        logger.logLevel = .trace
        try await Self.withLiveServer(logger: logger) { port in
            let requests = [
                // A plain GET of the sync endpoint, and a refused upgrade.
                "GET /sync/board?token=\(Self.documentToken) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /sync/board?ack=1&token=\(Self.documentToken) HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
                "GET /admin/apps?token=\(Self.adminToken) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.adminToken)\r\nConnection: close\r\n\r\n",
                "GET /apps/cart/manifest?user=u1&token=\(Self.plainSecret) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.plainSecret)\r\nConnection: close\r\n\r\n",
            ]
            for request in requests {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let head = String(decoding: try await connection.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
                #expect(head.hasPrefix("HTTP/1.1 4"), "\(request): \(head)")
            }
        }
        let lines = captured.all
        // The request lines are there, with the tokens hidden.
        #expect(lines.contains { $0.contains("/sync/board?token=***") }, "\(lines)")
        #expect(lines.contains { $0.contains("/admin/apps?token=***") }, "\(lines)")
        #expect(lines.contains { $0.contains("/apps/cart/manifest?user=u1&token=***") }, "\(lines)")
        for secret in [Self.documentToken, Self.adminToken, Self.plainSecret, "DocumentSecret", "AdminSecret"] {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) logged: \(lines.filter { $0.contains(secret) })")
        }
    }

    /// A token is found by its shape wherever the request line carries it: a `token` parameter
    /// in another case or percent-encoded, a token-shaped parameter with no name, a token as a
    /// path segment, a token percent-encoded itself. Served at `debug`, the level that logs each
    /// request line.
    @Test func tokensInEveryFormOfTheRequestLineNeverReachTheLogAtDebug() async throws {
        let captured = CapturedLines()
        var logger = Logger(label: "redaction-test") { _ in CapturingLogHandler(captured: captured) }
        logger.logLevel = .debug
        let encodedToken = Self.documentToken.replacingOccurrences(of: "shd_", with: "%73h%64%5F")
        let targets = [
            "/sync/board?to%6Ben=\(Self.plainSecret)",
            "/sync/board?TOKEN=\(Self.plainSecret)",
            "/sync/board?ack=1&\(Self.documentToken)",
            "/sync/\(Self.documentToken)",
            "/admin/apps/\(Self.adminToken.uppercased())/release",
            "/sync/board?token=\(encodedToken)",
            "/sync/board?x=\(encodedToken)",
        ]
        try await Self.withLiveServer(logger: logger) { port in
            for target in targets {
                let answer = try await RawConnection(port: port).exchange("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 4"), "\(target): \(answer.prefix(80))")
            }
        }
        let lines = captured.all
        // Each request was logged, its secret hidden.
        #expect(lines.filter { $0.contains("Request") }.count >= targets.count, "\(lines)")
        for secret in [Self.plainSecret, Self.documentToken, Self.adminToken, Self.adminToken.uppercased(), encodedToken,
                       "DocumentSecret", "AdminSecret", "ADMINSECRET"] {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) logged: \(lines.filter { $0.contains(secret) })")
        }
    }

    @Test func redactionFindsTokensByShapeInAnyCaseAndEncoding() {
        #expect(LogRedaction.uri(URI("/sync/d?to%6Ben=s3cret&ack=1")) == "/sync/d?to%6Ben=***&ack=1")
        #expect(LogRedaction.uri(URI("/sync/d?TOKEN=s3cret")) == "/sync/d?TOKEN=***")
        #expect(LogRedaction.uri(URI("/sync/d?Token%3Ds3cret")) == "/sync/d?Token%3D***")
        #expect(LogRedaction.uri(URI("/sync/d?shd_abc-9")) == "/sync/d?shd_***")
        #expect(LogRedaction.uri(URI("/sync/SHD_abc/x")) == "/sync/SHD_***/x")
        #expect(LogRedaction.uri(URI("/a/%73hk%5Fabc%2Ddef/b")) == "/a/%73hk%5F***/b")
        #expect(LogRedaction.text("Bearer%20shk_abc") == "Bearer%20shk_***")
        #expect(LogRedaction.text("fish_dinner and tokenless words") == "fish_dinner and tokenless words")
    }

    /// A malformed first head is answered `400` and closed, and logged at `debug` only: one
    /// `error` line per request let any client fill the log (docs/server.md, "Connections").
    @Test func malformedHeadsAreAnsweredAndLoggedBelowError() async throws {
        let captured = CapturedLines()
        var logger = Logger(label: "head-test") { _ in CapturingLogHandler(captured: captured) }
        logger.logLevel = .trace
        try await Self.withLiveServer(logger: logger) { port in
            for request in ["GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", "NOT A REQUEST\r\n\r\n", "GET /healthz HTTP/9.x\r\n\r\n"] {
                let answer = try await RawConnection(port: port).exchange(request)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(answer)")
            }
        }
        let lines = captured.all
        #expect(!lines.contains { $0.hasPrefix("error ") || $0.hasPrefix("critical ") }, "\(lines.filter { $0.hasPrefix("error") })")
    }

    @Test func redactionHidesEveryTokenShape() {
        #expect(LogRedaction.uri(URI("/sync/d?token=shd_abc&ack=1&token=x")) == "/sync/d?token=***&ack=1&token=***")
        #expect(LogRedaction.uri(URI("/apps/a/manifest?user=u")) == "/apps/a/manifest?user=u")
        #expect(LogRedaction.uri(URI("/healthz")) == "/healthz")
        #expect(LogRedaction.text("lookup failed for Bearer abc.def, retrying") == "lookup failed for Bearer ***, retrying")
        #expect(LogRedaction.text("got shk_AbC-d_9 and shd_xyz") == "got shk_*** and shd_***")
        #expect(LogRedaction.text("/sync/a?ack=1&token=s3cret") == "/sync/a?ack=1&token=***")
        #expect(LogRedaction.text("nothing to hide") == "nothing to hide")
    }

    /// Runs the application `statehub serve` builds (`makeApplication`, its logger wrapped as
    /// serve's is) on loopback with `logger`.
    static func withLiveServer(logger: Logger, _ body: @Sendable (Int) async throws -> Void) async throws {
        let test = try await TestServer.sqlite()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = test.server.makeApplication(router: test.server.makeRouter(), host: "127.0.0.1", port: 0, logger: logger,
                                              onRunning: { port in portSink.yield(port); portSink.finish() })
        let services = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "redaction-test")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw FloodError("server did not start") }
            do { try await body(port) } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        await test.close()
    }
}
