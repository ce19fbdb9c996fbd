import StateHubServer
import Testing

/// Every kind of idle connection is closed within the HTTP idle timeout (docs/server.md,
/// "Connections"): a WebSocket client gone without a close frame is found by the ping rule,
/// which closes a connection whose ping got no pong by the next one (checked live, at 300 ms, by
/// `SyncHandshakeTests.pingsAreAnsweredAndAClientThatNeverPongsIsClosedWith1001`).
@Suite struct IdleBoundTests {
    @Test func aVanishedWebSocketClientIsClosedWithinTheIdleTimeout() {
        let configuration = ServerConfiguration()
        #expect(configuration.sync.pingInterval * 2 <= configuration.idleTimeout,
                "two ping intervals (\(configuration.sync.pingInterval)) pass the idle timeout (\(configuration.idleTimeout))")
    }
}
