import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import StateHubServer
import Testing

/// The first admin token, revoked, must not come back when the server starts again with it still
/// in `STATEHUB_ADMIN_TOKEN` (docs/server.md, "Tokens").
@Suite(.tags(.unit)) struct RevokedTokenTests {
    @Test func aRevokedFirstTokenStaysRevokedAcrossRestarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-revoked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = "first-admin-token-0123456789"
        let second = "second-admin-token-0123456789"

        // Start 1: the first token is installed; a second one is made with it; the first is revoked with the second.
        var storage = try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test"))
        var server = try StateHubServer(storage: storage)
        #expect(try await server.installAdminToken(first))
        let router = server.makeRouter()
        try await Application(router: router).test(.router) { client in
            let made = try await client.admin(.post, "/admin/tokens", json: #"{"label":"second"}"#, token: first)
            #expect(made.status == .created)
            #expect(try await client.admin(.delete, "/admin/tokens/1", token: second).status == .unauthorized, "the second token is another one")
        }
        await storage.close()
        // The second token's value is only shown once: install it under a known value instead.
        storage = try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test"))
        server = try StateHubServer(storage: storage)
        #expect(try await server.installAdminToken(second, label: "second-known"))
        try await Application(router: server.makeRouter()).test(.router) { client in
            let revoked = try await client.admin(.delete, "/admin/tokens/1", token: second)
            #expect(revoked.status == .noContent)
            #expect(try await client.admin(.get, "/admin/console/apps", token: first).status == .unauthorized)
        }
        await storage.close()

        // Start 3, the first token still in the environment: not installed again, still refused.
        storage = try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test"))
        server = try StateHubServer(storage: storage)
        #expect(try await server.installAdminToken(first) == false)
        try await Application(router: server.makeRouter()).test(.router) { client in
            let refused = try await client.admin(.get, "/admin/console/apps", token: first)
            #expect(refused.status == .unauthorized)
            #expect(try await client.admin(.get, "/admin/console/apps", token: second).status == .ok)
            let audit = String(buffer: try await client.admin(.get, "/admin/console/audit", token: second).body)
            #expect(audit.contains(#""action":"token.delete""#) && audit.contains(#""target":"1""#), "the revocation is in the audit list")
        }
        await storage.close()
    }
}
