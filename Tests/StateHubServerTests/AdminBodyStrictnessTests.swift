import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// Admin bodies and paths read strictly (docs/server.md,
/// "Admin API"): a key written twice kept its first value silently, an unknown member such as
/// `"stabel"` was ignored, `DELETE /admin/tokens/+5` deleted token 5, and a `412` for an unquoted
/// `If-Match` did not say what was sent.
@Suite(.tags(.unit)) struct AdminBodyStrictnessTests {
    static func message(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func aKeyWrittenTwiceIsRefusedNamingIt() async throws {
        try await TestServer.sqlite().test(.router) { client in
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x"}"#).status == .created)
            let twice = try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","stable":"9.9.9"}"#)
            #expect(twice.status == .badRequest)
            #expect(Self.message(twice).contains(#"the body has the key \"stable\" twice"#), "\(Self.message(twice))")
            let nested = try await client.admin(.put, "/admin/apps/cart/release",
                                                json: #"{"stable":"1.0.0","arms":[{"version":"1.0.0","percent":5,"percent":50}]}"#)
            #expect(nested.status == .badRequest)
            #expect(Self.message(nested).contains(#"the body has the key \"percent\" twice in .arms[0]"#), "\(Self.message(nested))")
            #expect(try await client.admin(.get, "/admin/apps/cart").body.readableBytes > 0)
            #expect(!String(buffer: try await client.admin(.get, "/admin/apps/cart").body).contains("\"stable\""), "nothing was saved")
        }
    }

    @Test func anUnknownMemberIsRefusedNamingIt() async throws {
        try await TestServer.sqlite().test(.router) { client in
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x"}"#).status == .created)
            let typo = try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","stabel":"1.1.0"}"#)
            #expect(typo.status == .badRequest)
            #expect(Self.message(typo).contains(#"unknown member \"stabel\" (known: arms, stable, users)"#), "\(Self.message(typo))")
            let arm = try await client.admin(.put, "/admin/apps/cart/release",
                                             json: #"{"stable":"1.0.0","arms":[{"version":"1.0.0","percent":5,"lable":"A"}]}"#)
            #expect(arm.status == .badRequest)
            #expect(Self.message(arm).contains(#"unknown member \"lable\" in arms[0] (known: label, percent, version)"#), "\(Self.message(arm))")
            // Explicit users are data: any id is a key.
            let users = try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0","users":{"stabel":"1.0.0","__proto__":"1.0.0"}}"#)
            #expect(users.status == .ok, "\(Self.message(users))")
            let upload = try await client.admin(.put, "/admin/apps/cart/versions/1.1.0", json: #"{"bundle":"y","minNative":"1.0.0"}"#)
            #expect(upload.status == .badRequest)
            #expect(Self.message(upload).contains(#"unknown member \"minNative\""#), "\(Self.message(upload))")
            let pin = try await client.admin(.put, "/admin/apps/cart/pin", json: #"{"versoin":"1.0.0"}"#)
            #expect(pin.status == .badRequest && Self.message(pin).contains(#"unknown member \"versoin\" (known: version)"#), "\(Self.message(pin))")
        }
    }

    @Test func aTokenIDIsDigitsOnly() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let created = try await client.admin(.post, "/admin/tokens", json: #"{"label":"ci"}"#)
            #expect(created.status == .created)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])?["id"] as? Int)
            for spelled in ["+\(id)", "0x\(id)", "\(id)x", "-\(id)"] {
                let refused = try await client.admin(.delete, "/admin/tokens/\(spelled)")
                #expect(refused.status == .badRequest, "\(spelled)")
                #expect(Self.message(refused).contains("digits only"), "\(Self.message(refused))")
            }
            #expect(try await client.admin(.delete, "/admin/tokens/\(id)").status == .noContent, "the token was still there")
        }
    }

    @Test func a412ForAnUnquotedIfMatchNamesWhatWasSent() async throws {
        try await TestServer.sqlite().test(.router) { client in
            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x"}"#).status == .created)
            let tag = try #require(try await client.admin(.get, "/admin/apps/cart").headers[.eTag])
            let bare = tag.replacingOccurrences(of: "\"", with: "")
            let headers: HTTPFields = [.authorization: "Bearer \(TestServer.token)", .contentType: "application/json", .ifMatch: " \(bare) "]
            let refused = try await client.execute(uri: "/admin/apps/cart/release", method: .put, headers: headers,
                                                   body: ByteBuffer(string: #"{"stable":"1.0.0"}"#))
            #expect(refused.status == .preconditionFailed)
            let text = Self.message(refused)
            #expect(text.contains("If-Match was \\\"\(bare)\\\"") && text.contains("in double quotes"), "\(text)")
        }
    }
}
