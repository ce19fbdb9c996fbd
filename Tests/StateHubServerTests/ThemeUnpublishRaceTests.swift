import Foundation
import Logging
@testable import StateHubServer
import Testing

/// Two unpublishes at once of the last two published themes of a major, on PostgreSQL (each
/// request on its own pooled connection, as two instances would be): one goes through, the
/// other is refused, and the major keeps a published theme (docs/server.md, "Storage").
@Suite(.tags(.integration), .enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"))
struct ThemeUnpublishRaceTests {
    @Test func twoUnpublishesAtOnceNeverLeaveAMajorWithoutATheme() async throws {
        let storage = try await ServerStorage.open(.postgres(url: try await PostgresTestDatabase.fresh()), logger: Logger(label: "test"))
        let admin = AdminIdentity(tokenID: 1, label: "test")
        for version in ["1.0.0", "1.1.0"] {
            #expect(try await storage.putTheme(version: version, major: 1, data: Data(Fixtures.theme(version).utf8), by: admin) == .created)
        }
        for round in 0..<30 {
            for version in ["1.0.0", "1.1.0"] {
                _ = try await storage.setThemePublished(version: version, true, by: admin)
            }
            let outcomes = try await withThrowingTaskGroup(of: ServerStorage.ThemePublishOutcome.self) { group in
                for version in ["1.0.0", "1.1.0"] {
                    group.addTask { try await storage.setThemePublished(version: version, false, by: admin) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .lastPublished(major: 1) }.count == 1, "round \(round): \(outcomes)")
            let published = try await storage.state().themes.filter(\.published).map(\.version)
            #expect(published.count == 1, "round \(round): published \(published)")
        }
        await storage.close()
    }
}
