import Foundation
import Hummingbird
import HummingbirdTesting
import StateHubServer
import Testing

/// Paths and methods the routes do not have (docs/server.md, "Paths and methods"), and the
/// release and user-id fields refused with `400` naming the field ("Release model").
@Suite(.tags(.integration)) struct RouteShapeTests {
    static func errorCode(_ response: TestResponse) -> String? {
        let body = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return body?["error"] as? String
    }

    @Test func trailingAndRepeatedSlashesAreNotFoundOnEveryRoute() async throws {
        try await TestServer.sqlite().test(.router) { client in
            try await client.upload("cart", "1.0.0")
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
            // The exact paths answer.
            #expect(try await client.get("/healthz").status == .ok)
            #expect(try await client.get("/apps/cart/manifest?user=u1").status == .ok)
            #expect(try await client.admin(.get, "/admin/apps/cart").status == .ok)
            for path in ["/healthz/", "//healthz", "/healthz//", "/apps/cart/manifest/?user=u1", "/apps//cart/manifest?user=u1",
                         "/apps/cart/1.0.0/bundle.js/", "/apps/cart//1.0.0/bundle.js", "/openapi.yaml/", "/themes/current/"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path): \(response.status)")
                #expect(Self.errorCode(response) == "not-found", "\(path): \(String(buffer: response.body))")
            }
            let admin = try await client.admin(.get, "/admin/apps/cart/")
            #expect(admin.status == .notFound && Self.errorCode(admin) == "not-found")
        }
    }

    @Test func aMethodWithoutARouteIs405WithAllowAndTheErrorBody() async throws {
        try await TestServer.sqlite().test(.router) { client in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/healthz", "GET, HEAD"),
                (.post, "/apps/cart/manifest?user=u1", "GET, HEAD"),
                (.post, "/admin/apps/cart/pin", "PUT, DELETE"),
                (.get, "/admin/tokens", "POST"),
                (.patch, "/admin/apps/cart/release", "PUT"),
            ]
            for (method, path, allow) in cases {
                let response = try await client.execute(uri: path, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(path): \(response.status)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(Self.errorCode(response) == "method-not-allowed", "\(method) \(path): \(String(buffer: response.body))")
            }
            let nowhere = try await client.execute(uri: "/nowhere", method: .post)
            #expect(nowhere.status == .notFound && Self.errorCode(nowhere) == "not-found")
            #expect(try await client.execute(uri: "/healthz", method: .head).status == .ok)
        }
    }

    @Test func releaseFieldsAndUserIDsAreRefusedNamingTheField() async throws {
        try await TestServer.sqlite().test(.router) { client in
            try await client.upload("cart", "1.0.0")
            try await client.upload("cart", "1.1.0")
            let refused: [(String, String)] = [
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":10.005}]}"#, "arms[0].percent"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"A"},{"version":"1.0.0","percent":20,"label":"A"}]}"#, "arms[1].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"A"},{"version":"1.0.0","percent":20}]}"#, "arms[1].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20},{"version":"1.0.0","percent":20,"label":"B"}]}"#, "arms[0].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"A\u200b"},{"version":"1.0.0","percent":20,"label":"B"}]}"#, "arms[0].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":10.000000001}]}"#, "arms[0].percent"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":-0}]}"#, "arms[0].percent"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":-0.0}]}"#, "arms[0].percent"),
                // Look-alikes: a Cyrillic A, a fullwidth A, a trailing space.
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"A"},{"version":"1.0.0","percent":20,"label":"\u0410"}]}"#, "arms[1].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"\uff21"},{"version":"1.0.0","percent":20,"label":"B"}]}"#, "arms[0].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"A "},{"version":"1.0.0","percent":20,"label":"B"}]}"#, "arms[0].label"),
                (#"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":20,"label":"\#(String(repeating: "a", count: 33))"},{"version":"1.0.0","percent":20,"label":"B"}]}"#, "arms[0].label"),
                (#"{"stable":"1.0.0","users":{"qa\u202e1":"1.1.0"}}"#, "users"),
                (#"{"stable":"1.0.0","users":{"qa\u200d1":"1.1.0"}}"#, "users"),
            ]
            for (body, field) in refused {
                let response = try await client.admin(.put, "/admin/apps/cart/release", json: body)
                let text = String(buffer: response.body)
                #expect(response.status == .badRequest, "\(body): \(response.status) \(text)")
                #expect(text.contains("\"message\":\"\(field):"), "\(body): \(text)")
            }
            // Two user ids with one NFC form are refused naming both, whichever comes first.
            let collision = try await client.admin(.put, "/admin/apps/cart/release",
                                                   json: #"{"stable":"1.0.0","users":{"\u00e9":"1.1.0","e\u0301":"1.0.0"}}"#)
            let collisionText = String(buffer: collision.body)
            #expect(collision.status == .badRequest, "\(collisionText)")
            #expect(collisionText.contains("users: the keys") && collisionText.contains("(U+00E9)") && collisionText.contains("(U+0065 U+0301)"),
                    "\(collisionText)")
            // One spelling is stored in NFC; the other spelling asks for the same user.
            #expect(try await client.admin(.put, "/admin/apps/cart/release",
                                           json: #"{"stable":"1.0.0","users":{"e\u0301":"1.1.0"}}"#).status == .ok)
            let stored = String(buffer: try await client.admin(.get, "/admin/apps/cart").body)
            #expect(stored.contains("\u{E9}") && !stored.unicodeScalars.contains("\u{301}"), "\(stored)")
            for spelling in ["%C3%A9", "e%CC%81"] {
                let manifest = String(buffer: try await client.get("/apps/cart/manifest?user=\(spelling)").body)
                #expect(manifest.contains(#""version":"1.1.0""#), "\(spelling): \(manifest)")
            }
            // Two decimals, an A/B pair with two labels and plain user ids are taken.
            let accepted = #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":10.25,"label":"A"},{"version":"1.0.0","percent":0.07,"label":"control-2.b_x"}],"users":{"qa-1":"1.1.0"}}"#
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: accepted).status == .ok)

            let bidi = try await client.get("/apps/cart/manifest?user=qa%E2%80%AE1")
            #expect(bidi.status == .badRequest)
            #expect(String(buffer: bidi.body).contains("user: the control or format character U+202E"), "\(String(buffer: bidi.body))")
            #expect(try await client.get("/apps/cart/manifest?user=qa%E2%80%8B1").status == .badRequest)
            #expect(try await client.get("/apps/cart/manifest?user=qa-1").status == .ok)
        }
    }
}
