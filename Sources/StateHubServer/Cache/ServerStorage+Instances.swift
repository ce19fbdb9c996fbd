import Foundation
import SQLKit

/// Instances that serve snapshots kept fresh by notifications (PostgreSQL; docs/server.md, "Hot
/// reads and invalidation across instances"). Times are the database's clock in milliseconds,
/// so instances need not agree on theirs.
extension ServerStorage {
    /// The channel every admin write notifies (payload: the new generation) when it commits.
    static let stateChannel = "statehub_state"

    /// How long an instance's heartbeat keeps it counted: a writer waits for every instance
    /// heard from within this time. An instance serves from notifications only while its own
    /// last heartbeat is younger than half of it (``SnapshotCache``), so one that a writer no
    /// longer waits for has already gone back to checking every read.
    static let instanceLease: Duration = .seconds(10)

    private static let databaseMilliseconds = "(extract(epoch from clock_timestamp()) * 1000)::bigint"

    /// Records `instance` as having seen at least `generation`, now. Run on the listening
    /// connection itself, so a heartbeat that succeeds also shows that connection is alive.
    static func heartbeat(_ db: any SQLDatabase, instance: String, seen generation: Int) async throws {
        try await db.raw("""
            INSERT INTO server_instances (id, seen_generation, heartbeat_at) VALUES (\(bind: instance), \(bind: generation), \(unsafeRaw: Self.databaseMilliseconds))
            ON CONFLICT (id) DO UPDATE SET seen_generation = GREATEST(server_instances.seen_generation, EXCLUDED.seen_generation),
              heartbeat_at = EXCLUDED.heartbeat_at
            """).run()
    }

    static func generation(_ db: any SQLDatabase) async throws -> Int {
        guard let row = try await db.raw("SELECT value FROM generation WHERE id = 1").first() else {
            throw StorageError("the generation row is missing")
        }
        return try row.decode(column: "value", as: Int.self)
    }

    /// Live instances (heard from within the lease) that have not yet seen `generation`.
    func instancesBehind(_ generation: Int) async throws -> [String] {
        let lease = Int(Self.instanceLease.components.seconds) * 1000
        return try await backend.read { db in
            try await db.raw("""
                SELECT id FROM server_instances WHERE seen_generation < \(bind: generation)
                  AND heartbeat_at > \(unsafeRaw: Self.databaseMilliseconds) - \(bind: lease)
                """).all().map { try $0.decode(column: "id", as: String.self) }
        }
    }

    /// Waits until every live instance has seen the current generation (at least the one the
    /// caller's write made), reading the table every ``instancePollInterval`` of `clock` (the
    /// acknowledgements are rows, with no notification of their own); gives up after the lease,
    /// when a silent instance stops counting anyway. Returns the instances still behind then
    /// (none, normally).
    func waitUntilInstancesSeeCurrentGeneration(clock: ServerClock) async throws -> [String] {
        let target = try await generation()
        let deadline = clock.now + Self.instanceLease
        while true {
            let behind = try await instancesBehind(target)
            if behind.isEmpty || clock.now >= deadline { return behind }
            try await clock.sleep(for: Self.instancePollInterval)
        }
    }

    /// How often a writer reads which instances are still behind.
    static let instancePollInterval: Duration = .milliseconds(2)
}
