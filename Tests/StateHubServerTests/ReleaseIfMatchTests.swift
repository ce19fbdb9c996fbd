import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// A release saved over a concurrent change: `GET /admin/apps/{app}` answers
/// the release's tag, a save or rollback with a stale `If-Match` is `412 release-changed` and writes
/// nothing (docs/server.md, "Saving over a concurrent change").
@Suite(.tags(.unit)) struct ReleaseIfMatchTests {
    static func tag(_ client: some TestClientProtocol) async throws -> String? {
        try await client.admin(.get, "/admin/apps/cart").headers[.eTag]
    }

    static func put(_ client: some TestClientProtocol, _ json: String, ifMatch: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(TestServer.token)", .contentType: "application/json"]
        if let ifMatch { headers[.ifMatch] = ifMatch }
        return try await client.execute(uri: "/admin/apps/cart/release", method: .put, headers: headers, body: ByteBuffer(string: json))
    }

    @Test func aStaleIfMatchIsRefusedWith412AndNothingIsWritten() async throws {
        try await TestServer.sqlite().test(.router) { client in
            for version in ["1.0.0", "1.1.0"] {
                #expect(try await client.admin(.put, "/admin/apps/cart/versions/\(version)", json: #"{"bundle":"x\#(version)"}"#).status == .created)
            }
            #expect(try await Self.tag(client) == #""release-none""#)
            let first = try await Self.put(client, #"{"stable":"1.0.0"}"#, ifMatch: #""release-none""#)
            #expect(first.status == .ok)
            let firstTag = try #require(first.headers[.eTag])
            #expect(try await Self.tag(client) == firstTag, "the save answers the tag GET answers afterwards")

            // Someone else saves; a save still holding the first tag is refused.
            #expect(try await Self.put(client, #"{"stable":"1.1.0"}"#, ifMatch: nil).status == .ok, "no If-Match: written as before")
            let auditBefore = String(buffer: try await client.admin(.get, "/admin/console/audit").body)
            let stale = try await Self.put(client, #"{"stable":"1.0.0"}"#, ifMatch: firstTag)
            #expect(stale.status == .preconditionFailed)
            #expect(String(buffer: stale.body).contains(#""error":"release-changed""#))
            let app = String(buffer: try await client.admin(.get, "/admin/apps/cart").body)
            #expect(app.contains(#""stable":"1.1.0""#), "the other save stands")
            #expect(String(buffer: try await client.admin(.get, "/admin/console/audit").body) == auditBefore, "no audit row for a refused save")

            // A rollback with a stale tag is refused too; with the current one it goes through.
            var headers: HTTPFields = [.authorization: "Bearer \(TestServer.token)", .ifMatch: firstTag]
            #expect(try await client.execute(uri: "/admin/apps/cart/rollback", method: .post, headers: headers).status == .preconditionFailed)
            headers[.ifMatch] = try await Self.tag(client)
            let rolledBack = try await client.execute(uri: "/admin/apps/cart/rollback", method: .post, headers: headers)
            #expect(rolledBack.status == .ok)
            #expect(rolledBack.headers[.eTag] != nil && rolledBack.headers[.eTag] != headers[.ifMatch])
            #expect(try await Self.put(client, #"{"stable":"1.1.0"}"#, ifMatch: #"W/"x", *"#).status == .ok, "* matches any release")
        }
    }
}
