import SQLKit

extension SQLDatabase {
    /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws. Both backends use
    /// it; they differ only in the statement that begins (SQLite takes the write lock at once).
    func inTransaction<T: Sendable>(begin: String = "BEGIN",
                                    _ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await raw(SQLQueryString(begin)).run()
        do {
            let value = try await body(self)
            try await raw("COMMIT").run()
            return value
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
