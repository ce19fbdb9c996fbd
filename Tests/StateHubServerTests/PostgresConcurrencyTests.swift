import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import StateHubServer
import Testing

/// Concurrent writes of one row answer on PostgreSQL as on SQLite, and instances started at once
/// on a fresh database all start (docs/server.md, "Storage").
@Suite(.enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"), .tags(.integration))
struct PostgresConcurrencyTests {
    /// Instances opened together on a fresh database, each installing the same first token
    /// several times at once; then rounds of new tokens installed by all at once. Every call
    /// succeeds and each token is stored once.
    @Test func instancesStartingAtOnceOnAFreshDatabaseAllStart() async throws {
        let url = try await PostgresTestDatabase.fresh()
        let instances = 3
        let servers = try await withThrowingTaskGroup(of: StateHubServer.self) { group in
            for _ in 0..<instances {
                group.addTask {
                    let storage = try await ServerStorage.open(.postgres(url: url), logger: Logger(label: "test"))
                    return try StateHubServer(storage: storage)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let rounds = 12
        for round in 0..<rounds {
            let token = "concurrent-start-token-\(round)"
            let installed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for server in servers {
                    for _ in 0..<3 { group.addTask { try await server.installAdminToken(token) } }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(installed.allSatisfy { $0 }, "round \(round): \(installed)")
            #expect(try await servers[0].storage.hasToken(hash: AdminToken.hash(token)))
        }
        let count = try await servers[0].storage.backend.read { db in
            try await db.raw("SELECT COUNT(*) AS n FROM admin_tokens").first()?.decode(column: "n", as: Int.self)
        }
        #expect(count == rounds)
        for server in servers { await server.storage.close() }
    }

    /// Eight uploads of one version at once: one `201`, the others `200` with the same content
    /// and `409` with other content; the same for themes. Never `500`.
    @Test func concurrentUploadsOfOneVersionOrThemeAnswerAsOnSQLite() async throws {
        let server = try await TestServer.postgres(url: try await PostgresTestDatabase.fresh())
        try await server.test(.router) { client in
            for round in 0..<6 {
                let version = "1.\(round).0"
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<8 {
                        // Even uploads carry one body, odd ones another.
                        let body = #"{"bundle":"globalThis.v = \#(index % 2);","minNativeVersion":"1.0.0"}"#
                        group.addTask { try await client.admin(.put, "/admin/apps/cart/versions/\(version)", json: body).status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .created }.count == 1, "version \(version): \(statuses)")
                #expect(statuses.allSatisfy { [.created, .ok, .conflict].contains($0) }, "version \(version): \(statuses)")
                #expect(statuses.filter { $0 == .conflict }.count == 4, "version \(version): \(statuses)")

                let theme = "2.\(round).0"
                let themeStatuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<8 {
                        let body = Fixtures.theme(theme, primary: index % 2 == 0 ? "#007AFF" : "#FF0000")
                        group.addTask { try await client.admin(.put, "/admin/themes/\(theme)", json: body).status }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(themeStatuses.filter { $0 == .created }.count == 1, "theme \(theme): \(themeStatuses)")
                #expect(themeStatuses.filter { $0 == .conflict }.count == 4, "theme \(theme): \(themeStatuses)")
                #expect(themeStatuses.allSatisfy { [.created, .ok, .conflict].contains($0) }, "theme \(theme): \(themeStatuses)")
            }
        }
    }
}
