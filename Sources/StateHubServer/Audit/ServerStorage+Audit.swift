import Foundation
import SQLKit

/// The audit list: written by each storage write in its own transaction, read newest first.
extension ServerStorage {
    /// Adds the audit row of a change inside the change's transaction. `author` is `nil` only for
    /// writes made outside an admin request (the first token installed at start, storage tests):
    /// those leave no row.
    static func audit(_ db: any SQLDatabase, by author: AdminIdentity?, _ action: AuditEntry.Action, _ target: String,
                      before: AuditState?, after: AuditState?) async throws {
        guard let author else { return }
        let encoder = JSONEncoder.sorted
        let beforeText = try before.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let afterText = try after.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try await db.raw("""
            INSERT INTO audit_log (at, token_id, token_label, action, target, before_state, after_state)
            VALUES (\(bind: Int(Date().timeIntervalSince1970)), \(bind: author.tokenID), \(bind: author.label), \(bind: action.rawValue),
              \(bind: target), \(bind: beforeText), \(bind: afterText))
            """).run()
    }

    /// At most `limit` rows with an id below `before` (all when `nil`), newest first.
    func auditEntries(limit: Int, before: Int?) async throws -> [AuditEntry] {
        try await backend.read { db in
            let rows = try await db.raw("""
                SELECT id, at, token_id, token_label, action, target, before_state, after_state FROM audit_log
                WHERE id < \(bind: before ?? Int.max) ORDER BY id DESC LIMIT \(bind: limit)
                """).all()
            return try rows.map { row in
                let id = try row.decode(column: "id", as: Int.self)
                let actionText = try row.decode(column: "action", as: String.self)
                guard let action = AuditEntry.Action(rawValue: actionText) else {
                    throw StorageError("audit row \(id) has an unknown action \(actionText)")
                }
                func state(_ column: String) throws -> AuditState? {
                    guard let text = try row.decode(column: column, as: String?.self) else { return nil }
                    do {
                        return try JSONDecoder().decode(AuditState.self, from: Data(text.utf8))
                    } catch {
                        throw StorageError("audit row \(id): \(column) is not an audit state: \(error)")
                    }
                }
                return AuditEntry(
                    id: id, at: try row.decode(column: "at", as: Int.self),
                    author: AdminIdentity(tokenID: try row.decode(column: "token_id", as: Int.self),
                                          label: try row.decode(column: "token_label", as: String.self)),
                    action: action, target: try row.decode(column: "target", as: String.self),
                    before: try state("before_state"), after: try state("after_state"))
            }
        }
    }

    /// The id and label of the admin token whose SHA-256 is `hash`, or `nil`.
    func adminIdentity(hash: String) async throws -> AdminIdentity? {
        try await backend.read { db in
            guard let row = try await db.raw("SELECT id, label FROM admin_tokens WHERE sha256 = \(bind: hash)").first() else { return nil }
            return AdminIdentity(tokenID: try row.decode(column: "id", as: Int.self), label: try row.decode(column: "label", as: String.self))
        }
    }
}
