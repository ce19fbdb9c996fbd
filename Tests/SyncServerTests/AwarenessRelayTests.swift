import Clocks
import Foundation
import SharedDocument
import StateHubServer
import Testing

/// How awareness is relayed (docs/sync.md §2.5, "Awareness"): to every connection, the sender
/// included; a client behind the document is told what it holds; coalesced per receiving
/// connection and rate-limited per sending one, so a flood reaches nobody message by message.
@Suite(.tags(.integration)) struct AwarenessRelayTests {
    static func isAwareness(_ message: SyncMessage) -> Bool { if case .awareness = message { true } else { false } }

    static func entries(_ message: SyncMessage) -> [AwarenessUpdate.Entry] {
        guard case .awareness(let bytes) = message, let update = try? AwarenessUpdate(decoding: bytes) else { return [] }
        return update.entries
    }

    /// A client that comes back with the clock it left with is told it was removed (so
    /// y-protocols renews its state at once), and what it sends is echoed to it too.
    @Test func aClientBehindTheDocumentIsToldItsRemovalAndEchoed() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let bob = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        let alice = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        let present = AwarenessUpdate(entries: [.init(client: 5, clock: 3, state: #"{"name":"alice"}"#)])
        try await alice.send(.awareness(present.encoded()))
        #expect(await alice.next(where: { $0 == .awareness(present.encoded()) }) != nil, "the sender's own state was not echoed")
        #expect(await bob.next(where: { $0 == .awareness(present.encoded()) }) != nil)
        await alice.close()
        let removed = AwarenessUpdate(entries: [.init(client: 5, clock: 4, state: "null")])
        #expect(await bob.next(where: { $0 == .awareness(removed.encoded()) }) != nil, "alice's leaving was not announced")

        let returning = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        try await returning.send(.awareness(present.encoded()))
        #expect(await returning.next(where: { $0 == .awareness(removed.encoded()) }) != nil, "the returning client was not told it was removed")
        // What y-protocols then sends: its state with a newer clock, which everyone sees.
        let renewed = AwarenessUpdate(entries: [.init(client: 5, clock: 5, state: #"{"name":"alice"}"#)])
        try await returning.send(.awareness(renewed.encoded()))
        #expect(await bob.next(where: { $0 == .awareness(renewed.encoded()) }) != nil)
        #expect(await returning.next(where: { $0 == .awareness(renewed.encoded()) }) != nil)
        // The stale state itself reached nobody.
        #expect(bob.all.filter { Self.entries($0).contains { $0.client == 5 && $0.clock == 3 } }.count == 1)
        await returning.close()
        await bob.close()
        await live.stop()
    }

    /// Real y-websocket clients: after a clean `disconnect()` / `connect()` the returning client
    /// is visible to the other again. It runs without y-protocols' own renewal (every 15 s, which
    /// brought a returning client back when the sender was left out of the relay), so the
    /// server's echo of its removal, which it answers with a newer state, is its only way back:
    /// seeing it return is the whole check, however long a loaded machine takes.
    @Test func aReturningYjsClientIsVisibleAgainAtOnce() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let script = YjsPeer.peers.appendingPathComponent("presence-peer.cjs")
        let alice = try YjsPeer(name: "alice", server: "ws://127.0.0.1:\(live.port)/sync", document: "room", token: LiveSyncServer.adminToken, script: script)
        let bob = try YjsPeer(name: "bob", server: "ws://127.0.0.1:\(live.port)/sync", document: "room", token: LiveSyncServer.adminToken, script: script)
        @Sendable func names(_ line: [String: AnyHashableSendable]) -> [String] {
            ((line["names"]?.value as? [Any]) ?? []).compactMap { $0 as? String }
        }
        // Alice, the returning client, never renews her state: only the server's echo can bring
        // her back to bob. Bob keeps renewing: a client that reconnects keeps the clocks it saw,
        // so the server's greeting (bob at the clock alice already has) is ignored, as against
        // Yjs's own server, and alice sees bob again at bob's next renewal (within 15 s).
        try alice.send(["op": "noRenewal"])
        try alice.send(["op": "present", "name": "alice"])
        try bob.send(["op": "present", "name": "bob"])
        #expect(await bob.next("others", where: { names($0).contains("alice") }) != nil, "bob never saw alice: \(bob.stderr)")
        for round in 1...3 {
            try alice.send(["op": "disconnect"])
            #expect(await bob.next("others", where: { !names($0).contains("alice") }) != nil, "round \(round): alice's leaving never reached bob")
            try alice.send(["op": "connect"])
            #expect(await bob.next("others", where: { names($0).contains("alice") }) != nil,
                    "round \(round): alice never became visible to bob again")
            #expect(await alice.next("others", where: { names($0).contains("bob") }) != nil, "round \(round): alice does not see bob")
        }
        alice.stop()
        bob.stop()
        await live.stop()
    }

    /// A read-only client floods 1,500 awareness messages (4.5 MB) at a server whose connections
    /// may each have 500 messages waiting: the server relays them coalesced at its rate, a client
    /// that reads nothing is not cut off (each message relayed alone filled its queue past the
    /// cap), and a reading client ends with the latest state. The rate runs on a test clock: the
    /// whole flood arrives at one instant, so the burst is relayed and the rest waits, coalesced,
    /// until the clock moves on however long the machine took to send it.
    @Test func aFloodIsCoalescedAndCutsNobodyOff() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        var configuration = ServerConfiguration()
        configuration.sync.maxQueueMessages = 500
        configuration.clock = clock
        configuration.sync.pingInterval = SyncEndpointTests.pingIntervalPastTheTest
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let readOnly = try await live.issueToken(document: "room", access: "read")
        let idle = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken, reading: false)
        let watcher = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        let flooder = try await SyncTestClient.connect(port: live.port, document: "room", token: readOnly)
        let count = 1_500
        let padding = String(repeating: "p", count: 3_000)
        for clock in 1...count {
            let update = AwarenessUpdate(entries: [.init(client: 42, clock: clock, state: #"{"cursor":\#(clock),"pad":"\#(padding)"}"#)])
            try await flooder.send(.awareness(update.encoded()))
        }
        // A connection's messages are taken in order: once the server answers this query with
        // the latest state, it has taken the whole flood.
        try await flooder.send(.queryAwareness)
        #expect(await flooder.next(where: { Self.entries($0).contains { $0.client == 42 && $0.clock == count } }) != nil,
                "the server never held the flood's latest state")
        await clock.advance(by: .seconds(1))
        #expect(await watcher.next(where: { Self.entries($0).contains { $0.client == 42 && $0.clock == count } }) != nil,
                "the latest state never reached the watcher")
        let relays = watcher.all.filter(Self.isAwareness).count
        let burst = configuration.sync.awarenessRelayBurst
        #expect(relays <= burst + 1, "\(relays) awareness messages for \(count) sent: more than the burst and one coalesced relay")
        // One document round trip after the flood: the idle client is still connected.
        let writer = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken, acknowledgements: true)
        let document = SharedDocument()
        try await writer.send(.update(try edit(document) { try $0.map("m").set("k", .int(1)) }))
        #expect(await watcher.next(where: isUpdate) != nil)
        #expect(await live.server.sync.connectionCount(document: "room") == 4, "a client was cut off by someone else's flood")
        await writer.close()
        await flooder.close()
        await watcher.close()
        await idle.close()
        await live.stop()
    }
}
