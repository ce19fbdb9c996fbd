import NIOCore
import NIOEmbedded
@testable import StateHubServer
import Testing

/// ``FirstRequestHeadTimeout`` on virtual time (an `EmbeddedChannel`): the first head must end
/// within the timeout counted from the connect, however its bytes trickle in.
@Suite struct FirstRequestHeadTimeoutTests {
    static let timeout = TimeAmount.milliseconds(500)

    static func timedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(FirstRequestHeadTimeout(timeout: timeout))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    @Test func aHeadTrickledByteByByteIsClosedAtTheTimeoutFromTheConnect() throws {
        let channel = try Self.timedChannel()
        var elapsed = TimeAmount.zero
        for byte in "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaa".utf8 where elapsed < Self.timeout - .milliseconds(10) {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(10))
            elapsed = elapsed + .milliseconds(10)
        }
        #expect(channel.isActive, "closed before the timeout")
        channel.embeddedEventLoop.advanceTime(by: Self.timeout - elapsed)
        #expect(!channel.isActive, "a trickled head held its connection past the timeout")
    }

    @Test func aHeadEndedAcrossTwoReadsRemovesTheTimeout() throws {
        let channel = try Self.timedChannel()
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r"))
        try channel.writeInbound(ByteBuffer(string: "\n\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "closed after its first head had ended")
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: FirstRequestHeadTimeout.self) }
    }
}
