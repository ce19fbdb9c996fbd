import Logging
import PostgresKit
import SQLKit

/// PostgreSQL through postgres-kit over PostgresNIO's `PostgresClient` pool, whose `run()` this
/// backend drives in a task of its own until `shutdown()`.
final class PostgresBackend: SQLBackend {
    let isPostgres = true
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    static func open(url: String, logger: Logger, maxConnections: Int = 16) throws -> PostgresBackend {
        let configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw StorageError("cannot read the PostgreSQL URL: \(error)")
        }
        let core = configuration.coreConfiguration
        guard let host = core.host else { throw StorageError("the PostgreSQL URL needs a host") }
        var clientConfiguration = PostgresClient.Configuration(
            host: host, port: core.port ?? SQLPostgresConfiguration.ianaPortNumber,
            username: core.username, password: core.password, database: core.database, tls: .disable)
        clientConfiguration.options.maximumConnections = maxConnections
        clientConfiguration.options.minimumConnections = 2
        return PostgresBackend(client: PostgresClient(configuration: clientConfiguration, backgroundLogger: logger), logger: logger)
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await body(connection.sql(queryLogLevel: nil))
        }
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.sql(queryLogLevel: nil).inTransaction(body)
        }
    }

    func shutdown() async {
        runner.cancel()
        await runner.value
    }
}
