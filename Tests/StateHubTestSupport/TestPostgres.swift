import Foundation
import PostgresKit

/// The PostgreSQL server `scripts/with-postgres.sh` started for the tests
/// (`STATEHUB_TEST_DATABASE_URL`).
public enum TestPostgres {
    public static var url: String? { ProcessInfo.processInfo.environment["STATEHUB_TEST_DATABASE_URL"] }

    /// Creates a new empty database named `PREFIX_<16 hex>` on that server and returns its URL.
    public static func freshDatabase(prefix: String) async throws -> String {
        guard let url, var components = URLComponents(string: url) else {
            throw TestSupportError("STATEHUB_TEST_DATABASE_URL is not set (or not a URL): run the tests through scripts/test.sh (scripts/with-postgres.sh)")
        }
        let name = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        let core = try SQLPostgresConfiguration(url: url).coreConfiguration
        let client = PostgresClient(configuration: .init(host: core.host ?? "127.0.0.1", port: core.port ?? 5432,
                                                         username: core.username, password: core.password,
                                                         database: core.database, tls: .disable))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            group.cancelAll()
        }
        components.path = "/" + name
        return components.string ?? url
    }
}
