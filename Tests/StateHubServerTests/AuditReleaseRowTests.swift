import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// Release rows of the audit list say what changed for whom and stay small:
/// stable and arms whole, only the explicit users the change touched, at most 20 a side.
@Suite(.tags(.unit)) struct AuditReleaseRowTests {
    struct Release: Decodable, Equatable {
        var stable: String
        var users: [String: String]
    }
    struct Side: Decodable, Equatable {
        var release: Release?
        var userCount: Int?
        var usersChanged: Int?
    }
    struct Row: Decodable {
        var action: String
        var before: Side?
        var after: Side?
    }
    struct Page: Decodable {
        var entries: [Row]
    }

    static func release(stable: String, users: [String: String]) throws -> String {
        struct Body: Encodable { var stable: String; var users: [String: String] }
        return String(decoding: try JSONEncoder().encode(Body(stable: stable, users: users)), as: UTF8.self)
    }

    @Test func aReleaseRowListsOnlyTheUsersThatChangedBounded() async throws {
        try await TestServer.sqlite().test(.router) { client in
            for version in ["1.0.0", "1.1.0"] {
                #expect(try await client.admin(.put, "/admin/apps/cart/versions/\(version)", json: #"{"bundle":"x\#(version)"}"#).status == .created)
            }
            // 2,500 explicit users (about what the 64 KiB body cap lets a release name), then three changed.
            var users: [String: String] = [:]
            for index in 0..<2_500 { users[String(format: "user-%05d", index)] = "1.0.0" }
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: try Self.release(stable: "1.0.0", users: users)).status == .ok)
            var moved = users
            moved["user-00042"] = "1.1.0"
            moved["user-00007"] = nil
            moved["zoe"] = "1.1.0"
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: try Self.release(stable: "1.1.0", users: moved)).status == .ok)

            let body = try await client.admin(.get, "/admin/console/audit?limit=2").body
            #expect(body.readableBytes < 4_000, "two rows of a 2,500-user release are small (\(body.readableBytes) bytes)")
            let rows = try JSONDecoder().decode(Page.self, from: Data(body.readableBytesView)).entries
            #expect(rows.map(\.action) == ["release.set", "release.set"])
            #expect(rows[0].before == Side(release: Release(stable: "1.0.0", users: ["user-00007": "1.0.0", "user-00042": "1.0.0"]),
                                           userCount: 2_500))
            #expect(rows[0].after == Side(release: Release(stable: "1.1.0", users: ["user-00042": "1.1.0", "zoe": "1.1.0"]),
                                          userCount: 2_500, usersChanged: 3))
            // The first release: every user is new, 20 of them listed, all counted.
            #expect(rows[1].before == Side())
            #expect(rows[1].after?.release?.users.count == 20 && rows[1].after?.usersChanged == 2_500 && rows[1].after?.userCount == 2_500)
            #expect(rows[1].after?.release?.users.keys.sorted().first == "user-00000")
        }
    }
}
