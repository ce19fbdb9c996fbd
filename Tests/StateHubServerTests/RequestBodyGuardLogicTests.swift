import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
@testable import StateHubServer
import Testing

/// ``RequestBodyGuard``'s body deadline on virtual time: the guard in an `EmbeddedChannel`,
/// whose event loop's clock moves only when the test advances it (`RequestBodyGuardTests`
/// checks the same against a real server on loopback).
@Suite struct RequestBodyGuardLogicTests {
    static let deadline = TimeAmount.seconds(1)
    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/admin/console/trace-timeline"))

    /// An active channel with the guard in its pipeline.
    static func guardedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(RequestBodyGuard(deadline: deadline))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    @Test func aBodyStillOpenAtItsDeadlineClosesTheConnectionAndNotBefore() throws {
        let channel = try Self.guardedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
        channel.embeddedEventLoop.advanceTime(by: Self.deadline - .nanoseconds(1))
        #expect(channel.isActive, "closed before the body deadline")
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "open past the body deadline")
    }

    @Test func aBodyEndedInTimeLeavesTheConnectionOpen() throws {
        let channel = try Self.guardedChannel()
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: Self.deadline - .milliseconds(1))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "closed after a body that ended in time")
        _ = try channel.finish()
    }

    /// One pending check per connection: the check left by an answered request, when it fires
    /// during the next request's body, waits on for that request's own deadline.
    @Test func theCheckOfAnEarlierRequestWaitsForTheNextRequestsOwnDeadline() throws {
        let channel = try Self.guardedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
        try channel.writeInbound(Self.head)  // its deadline: 1.5 s
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))  // the first request's check fires
        #expect(channel.isActive, "closed at the earlier request's deadline")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500) - .nanoseconds(1))
        #expect(channel.isActive, "closed before the second request's deadline")
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "open past the second request's deadline")
    }

    @Test func anAnswerBeforeTheBodySaysConnectionCloseAndDropsTheRestOfTheBody() throws {
        let channel = try Self.guardedChannel()
        try channel.writeInbound(Self.head)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.head)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .unauthorized)))
        guard case .head(let answer)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no answer head written")
            return
        }
        #expect(answer.headerFields[.connection] == "close")
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "rest of the body")))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "the body after the answer reached the router")
    }
}
