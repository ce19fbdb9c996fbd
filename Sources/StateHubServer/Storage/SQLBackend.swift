import SQLKit

/// One SQL database as the storage needs it: reads, transactions, and which dialect it speaks.
/// SQLite and PostgreSQL implement it; everything above speaks sql-kit only.
protocol SQLBackend: Sendable {
    var isPostgres: Bool { get }
    /// Runs `body` with a database handle; concurrent calls may run in parallel (PostgreSQL) or
    /// one at a time (SQLite).
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` inside one transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async
}
