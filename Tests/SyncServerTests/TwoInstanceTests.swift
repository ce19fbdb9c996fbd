import Foundation
import PostgresKit
import SharedDocument
import StateHubServer
import StateHubTestSupport
import Testing

/// Two server instances on one PostgreSQL (the one `scripts/with-postgres.sh` started): updates
/// received by one reach the other's clients through LISTEN/NOTIFY (docs/sync.md §2.4).
/// Fails, not skips, without `STATEHUB_TEST_DATABASE_URL` when `CI=true`.
@Suite(.tags(.integration), .enabled(if: ProcessInfo.processInfo.environment["STATEHUB_TEST_DATABASE_URL"] != nil
                 || ProcessInfo.processInfo.environment["CI"] == "true",
                 "needs scripts/with-postgres.sh (required when CI=true)"))
struct TwoInstanceTests {
    @Test func clientsOnTwoInstancesConverge() async throws {
        let url = try await TestPostgres.freshDatabase(prefix: "sync")
        let one = try await LiveSyncServer.start(.postgres(url: url))
        let two = try await LiveSyncServer.start(.postgres(url: url))
        let token = try await one.issueToken(document: "shared", access: "read-write")

        let nativeOne = try await SyncTestClient.connect(port: one.port, document: "shared", token: token, acknowledgements: true)
        let nativeTwo = try await SyncTestClient.connect(port: two.port, document: "shared", token: token, acknowledgements: true)
        // Greeted: the document is loaded on instance two and this client joined, before the write
        // below. Otherwise instance two may load the document after the write commits and greet with
        // it: this client, which sends no sync step 1, would never get it as an update (seen 8 times
        // in 20 runs under load).
        #expect(await nativeTwo.next(where: { if case .syncStep1 = $0 { true } else { false } }) != nil,
                "instance two did not greet its client")
        let documentOne = SharedDocument(), documentTwo = SharedDocument()
        let fromOne = try edit(documentOne) { try $0.map("m").set("one", .string("1")) }
        try await nativeOne.send(.update(fromOne))
        #expect(await nativeOne.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        #expect(await nativeTwo.next(where: isUpdate) == .update(fromOne),
                "instance two's client did not get instance one's update; it got \(nativeTwo.all.map(\.diagnosticSummary)), one's update \(fromOne.count) bytes")
        try documentTwo.applyUpdate(fromOne)
        let fromTwo = try edit(documentTwo) { try $0.map("m").set("two", .string("2")) }
        try await nativeTwo.send(.update(fromTwo))
        #expect(await nativeOne.next(where: isUpdate) == .update(fromTwo), "instance one's client did not get instance two's update")

        // Awareness (presence) reaches the other instance's clients too, and so does its leaving.
        let presence = AwarenessUpdate(entries: [.init(client: 77, clock: 1, state: #"{"name":"one"}"#)])
        try await nativeOne.send(.awareness(presence.encoded()))
        #expect(await nativeTwo.next(where: { $0 == .awareness(presence.encoded()) }) != nil,
                "instance two's client did not get instance one's awareness")

        // Real Yjs clients, one on each instance, edit and converge with the native ones.
        let peerOne = try YjsPeer(name: "one", port: one.port, document: "shared", token: token)
        let peerTwo = try YjsPeer(name: "two", port: two.port, document: "shared", token: token)
        defer { peerOne.stop(); peerTwo.stop() }
        guard await peerOne.next("synced") != nil else { throw peerOne.failure("sync") }
        guard await peerTwo.next("synced") != nil else { throw peerTwo.failure("sync") }
        try await peerOne.set("yjs-one", "3")
        try await peerTwo.set("yjs-two", "4")
        try await peerOne.waitFor("yjs-two", "4")
        try await peerTwo.waitFor("yjs-one", "3")
        let expected = ["one": "1", "two": "2", "yjs-one": "3", "yjs-two": "4"]
        #expect(try await peerOne.dump() == expected)
        #expect(try await peerTwo.dump() == expected)
        for live in [one, two] {
            let stored = try await fetchDocument(port: live.port, "shared")
            let map = try stored.map("m")
            for (key, value) in expected { #expect(try map.get(key) == .string(value), "\(key) on port \(live.port)") }
        }
        await nativeOne.close()
        // A token revoked through instance one closes its connection on instance two.
        let revocable = try await one.issueToken(document: "shared", access: "read")
        let watcher = try await SyncTestClient.connect(port: two.port, document: "shared", token: revocable)
        #expect(await watcher.next() != nil, "the watcher was not greeted")
        let (_, listed) = try await one.request("GET", "/admin/documents/shared/tokens")
        let tokens = try JSONSerialization.jsonObject(with: listed) as? [[String: Any]] ?? []
        let id = tokens.first { $0["access"] as? String == "read" }?["id"] as? Int ?? -1
        #expect(try await one.request("DELETE", "/admin/documents/shared/tokens/\(id)").0 == 204)
        // Waits until the connection ends (or a generous bound for a server that never closes it).
        _ = await watcher.next(where: { _ in false })
        #expect(watcher.hasEnded, "the revoked connection on instance two is still open")
        // The client sees the close before instance two has detached the connection; the
        // server announces no detach, so its connection count is polled.
        let twoSync = two.server.sync
        await pollUntil("the revoked connection detached on instance two",
                        observed: { "\(await twoSync.connectionCount(document: "shared")) attached" }) {
            await twoSync.connectionCount(document: "shared") <= 2
        }
        let left = AwarenessUpdate(entries: [.init(client: 77, clock: 2, state: "null")])
        #expect(await nativeTwo.next(where: { $0 == .awareness(left.encoded()) }) != nil, "the leaving did not reach instance two")
        await nativeTwo.close()
        await one.stop()
        await two.stop()
    }
}

extension SyncMessage {
    /// The kind and size of a message, for failure messages.
    var diagnosticSummary: String {
        switch self {
        case .syncStep1(let vector): "step1(\(vector))"
        case .syncStep2(let update): "step2(\(update.count) B)"
        case .update(let update): "update(\(update.count) B)"
        case .awareness(let bytes): "awareness(\(bytes.count) B)"
        default: "\(self)"
        }
    }
}
