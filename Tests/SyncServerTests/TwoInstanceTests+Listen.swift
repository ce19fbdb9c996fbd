import Foundation
import PostgresKit
import SharedDocument
@testable import StateHubServer
import StateHubTestSupport
import Testing

/// An instance serves before its first `LISTEN` is active, and a NOTIFY sent before that is lost
/// (docs/sync.md §2.4, "Catching up" and "Ready"): the listener is held at its steps through the
/// test seam, so the windows are reached by order, not by timing.
extension TwoInstanceTests {
    /// The lost update seen once in CI: instance two loaded the document for a client before its
    /// first `LISTEN`, and instance one committed an update in that window.
    @Test func anUpdateCommittedBeforeTheFirstListenReachesAClientServedMeanwhile() async throws {
        let url = try await TestPostgres.freshDatabase(prefix: "sync")
        let one = try await LiveSyncServer.start(.postgres(url: url))
        let gate = ListenerGate(holding: [.beforeListen])
        let (two, ready) = try await LiveSyncServer.start(.postgres(url: url), listenerHook: gate.hook)
        defer { gate.releaseAll() }
        await gate.waitUntilHeld(at: .beforeListen)
        let token = try await one.issueToken(document: "shared", access: "read-write")

        // Served before the LISTEN: greeted once the document is loaded on instance two.
        let nativeTwo = try await SyncTestClient.connect(port: two.port, document: "shared", token: token)
        #expect(await nativeTwo.next(where: isSyncStep1) != nil, "instance two did not greet its client")
        #expect(!two.server.sync.listener.isReady, "instance two was ready before its LISTEN")
        let nativeOne = try await SyncTestClient.connect(port: one.port, document: "shared", token: token, acknowledgements: true)
        let fromOne = try edit(SharedDocument()) { try $0.map("m").set("one", .string("1")) }
        try await nativeOne.send(.update(fromOne))
        // Acknowledged: committed, and its NOTIFY sent while instance two does not listen.
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 1))

        gate.release(.beforeListen)
        var readyPorts = ready.makeAsyncIterator()
        #expect(await readyPorts.next() == two.port, "instance two never said it was running")
        #expect(two.server.sync.listener.isReady)
        guard case .update(let caughtUp)? = await nativeTwo.next(where: isUpdate) else {
            Issue.record("instance two's client did not get instance one's update")
            return
        }
        let received = SharedDocument()
        try received.applyUpdate(caughtUp)
        #expect(try entries(received.map("m")) == ["one": .string("1")])
        #expect(try entries(try await fetchDocument(port: two.port, "shared").map("m")) == ["one": .string("1")])
        await nativeOne.close()
        await nativeTwo.close()
        await one.stop()
        await two.stop()
    }

    /// Idempotence: an update committed once the `LISTEN` is active but before the catch-up reads
    /// the table is both read by the catch-up and NOTIFYed; the client gets it once.
    @Test func anUpdateBothCaughtUpAndNotifiedReachesTheClientOnce() async throws {
        let url = try await TestPostgres.freshDatabase(prefix: "sync")
        let one = try await LiveSyncServer.start(.postgres(url: url))
        let gate = ListenerGate(holding: [.beforeListen, .beforeCatchUp])
        let (two, ready) = try await LiveSyncServer.start(.postgres(url: url), listenerHook: gate.hook)
        defer { gate.releaseAll() }
        await gate.waitUntilHeld(at: .beforeListen)
        let token = try await one.issueToken(document: "shared", access: "read-write")
        let nativeTwo = try await SyncTestClient.connect(port: two.port, document: "shared", token: token)
        #expect(await nativeTwo.next(where: isSyncStep1) != nil, "instance two did not greet its client")
        let nativeOne = try await SyncTestClient.connect(port: one.port, document: "shared", token: token, acknowledgements: true)
        let documentOne = SharedDocument()

        // a: committed before the LISTEN (its NOTIFY is lost); b: after it, before the catch-up.
        let a = try edit(documentOne) { try $0.map("m").set("a", .string("1")) }
        try await nativeOne.send(.update(a))
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        gate.release(.beforeListen)
        await gate.waitUntilHeld(at: .beforeCatchUp)
        #expect(!two.server.sync.listener.isReady, "instance two was ready before its catch-up")
        let b = try edit(documentOne) { try $0.map("m").set("b", .string("2")) }
        try await nativeOne.send(.update(b))
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 2))
        gate.release(.beforeCatchUp)
        var readyPorts = ready.makeAsyncIterator()
        #expect(await readyPorts.next() == two.port, "instance two never said it was running")

        // c after ready: its NOTIFY follows b's through the one listener, so every update the
        // client gets before c is all it will get of a and b.
        let c = try edit(documentOne) { try $0.map("m").set("c", .string("3")) }
        try await nativeOne.send(.update(c))
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 3))
        var updates: [[UInt8]] = []
        while case .update(let update)? = await nativeTwo.next(where: isUpdate) {
            updates.append(update)
            if update == c { break }
        }
        #expect(updates.last == c, "instance two's client did not get c")
        #expect(updates.count == 2, "a and b should arrive as one catch-up, then c: got \(updates.count) updates")
        let caughtUp = SharedDocument()
        try caughtUp.applyUpdate(updates.first ?? [])
        #expect(try entries(caughtUp.map("m")) == ["a": .string("1"), "b": .string("2")])
        let expected: [String: YValue] = ["a": .string("1"), "b": .string("2"), "c": .string("3")]
        #expect(try entries(try await fetchDocument(port: two.port, "shared").map("m")) == expected)
        await nativeOne.close()
        await nativeTwo.close()
        await one.stop()
        await two.stop()
    }

    /// After a lost listening connection the next round catches up too: an update committed while
    /// the listener was reconnecting reaches a client of the document.
    @Test func anUpdateCommittedWhileTheListenerReconnectsReachesTheClient() async throws {
        let url = try await TestPostgres.freshDatabase(prefix: "sync")
        let gate = ListenerGate(holding: [])
        let (two, ready) = try await LiveSyncServer.start(.postgres(url: url), listenerHook: gate.hook)
        defer { gate.releaseAll() }
        var readyPorts = ready.makeAsyncIterator()
        #expect(await readyPorts.next() == two.port, "instance two never said it was running")
        let token = try await two.issueToken(document: "shared", access: "read-write")
        let nativeTwo = try await SyncTestClient.connect(port: two.port, document: "shared", token: token)
        #expect(await nativeTwo.next(where: isSyncStep1) != nil, "instance two did not greet its client")

        gate.hold(.beforeListen)
        // Only instance two runs yet: the listening sessions (sync and snapshot cache) are its own.
        #expect(try await terminateListeners(url) >= 1, "no listening session to end")
        await gate.waitUntilHeld(at: .beforeListen)
        let one = try await LiveSyncServer.start(.postgres(url: url))
        let nativeOne = try await SyncTestClient.connect(port: one.port, document: "shared", token: token, acknowledgements: true)
        let fromOne = try edit(SharedDocument()) { try $0.map("m").set("one", .string("1")) }
        try await nativeOne.send(.update(fromOne))
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        gate.release(.beforeListen)
        guard case .update(let caughtUp)? = await nativeTwo.next(where: isUpdate) else {
            Issue.record("instance two's client did not get the update committed while its listener reconnected")
            return
        }
        let received = SharedDocument()
        try received.applyUpdate(caughtUp)
        #expect(try entries(received.map("m")) == ["one": .string("1")])
        await nativeOne.close()
        await nativeTwo.close()
        await one.stop()
        await two.stop()
    }
}

/// Ends the listening sessions on `url`'s database (`pg_terminate_backend`), as a lost connection
/// would; returns how many.
private func terminateListeners(_ url: String) async throws -> Int {
    let core = try SQLPostgresConfiguration(url: url).coreConfiguration
    let client = PostgresClient(configuration: .init(host: core.host ?? "127.0.0.1", port: core.port ?? 5432,
                                                     username: core.username, password: core.password,
                                                     database: core.database, tls: .disable))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        let rows = try await client.query("""
            SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
            """)
        var count = 0
        for try await terminated in rows.decode(Int.self) { count = terminated }
        return count
    }
}

private func isSyncStep1(_ message: SyncMessage) -> Bool { if case .syncStep1 = message { true } else { false } }
