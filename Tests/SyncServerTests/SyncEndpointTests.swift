import Clocks
import Foundation
import HummingbirdWSClient
import SharedDocument
import StateHubServer
import StateHubTestSupport
import Testing

/// Makes an edit on `document` and returns it as one v1 update.
func edit(_ document: SharedDocument, _ body: (SharedDocument) throws -> Void) throws -> [UInt8] {
    let before = document.encodeStateVector()
    try body(document)
    return try document.encodeStateAsUpdate(stateVector: before)
}

/// The whole document a server holds, read as a fresh client would: sync step 1 with an empty
/// state vector, answered by sync step 2.
func fetchDocument(port: Int, _ name: String, token: String = LiveSyncServer.adminToken) async throws -> SharedDocument {
    let client = try await SyncTestClient.connect(port: port, document: name, token: token)
    try await client.send(.syncStep1(stateVector: [0]))
    guard case .syncStep2(let update)? = await client.next(where: { if case .syncStep2 = $0 { true } else { false } }) else {
        await client.close()
        throw SyncTestError("no sync step 2 from the server")
    }
    await client.close()
    let document = SharedDocument()
    try document.applyUpdate(update)
    return document
}

/// A map's entries, whatever order its keys were integrated in (that order depends on client ids).
func entries(_ map: YMap) throws -> [String: YValue] {
    var result: [String: YValue] = [:]
    for key in map.keys { result[key] = try map.get(key) }
    return result
}

func isUpdate(_ message: SyncMessage) -> Bool { if case .update = message { true } else { false } }
func isAcknowledgement(_ message: SyncMessage) -> Bool { if case .acknowledgement = message { true } else { false } }

@Suite(.tags(.integration)) struct SyncEndpointTests {
    /// For a test with a client that never reads: it answers no ping either, so with the default
    /// interval (10 s) a loaded machine could see it closed by the ping rule (docs/sync.md §2.5)
    /// instead of by the queue or budget rule under test.
    static let pingIntervalPastTheTest = Duration.seconds(600)

    @Test func clientsConvergeAndWritesAreAcknowledgedAfterTheyAreStored() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let a = try await SyncTestClient.connect(port: live.port, document: "board", token: LiveSyncServer.adminToken, acknowledgements: true)
        let b = try await SyncTestClient.connect(port: live.port, document: "board", token: LiveSyncServer.adminToken)
        // The server greets each with its state vector.
        #expect(await a.next() == .syncStep1(stateVector: [0]))
        #expect(await b.next() == .syncStep1(stateVector: [0]))

        let docA = SharedDocument(), docB = SharedDocument()
        let first = try edit(docA) { try $0.map("board").set("title", .string("Alpha")) }
        try await a.send(.update(first))
        #expect(await a.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        #expect(await b.next(where: isUpdate) == .update(first))
        try docB.applyUpdate(first)

        let second = try edit(docB) { try $0.map("board").set("owner", .string("Bo")) }
        try await b.send(.update(second))
        #expect(await a.next(where: isUpdate) == .update(second))
        try docA.applyUpdate(second)
        // Sending again what the server has changes nothing, is not broadcast, and is acknowledged.
        try await a.send(.syncStep2(update: first))
        #expect(await a.next(where: isAcknowledgement) == .acknowledgement(count: 2))
        // B never asked for acknowledgements and got none.
        #expect(!b.all.contains(where: isAcknowledgement))

        let fresh = try await fetchDocument(port: live.port, "board")
        #expect(try entries(fresh.map("board")) == ["title": .string("Alpha"), "owner": .string("Bo")])
        #expect(try entries(docA.map("board")) == entries(fresh.map("board")))
        #expect(try entries(docB.map("board")) == entries(fresh.map("board")))
        #expect(b.all.filter(isUpdate) == [.update(first)], "the repeated update was broadcast")
        await a.close()
        await b.close()
        await live.stop()
    }

    @Test func aReadOnlyTokenReadsButItsUpdatesAreRefusedWithPermissionDenied() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let readToken = try await live.issueToken(document: "notes", access: "read")
        let writeToken = try await live.issueToken(document: "notes", access: "read-write")
        let writer = try await SyncTestClient.connect(port: live.port, document: "notes", token: writeToken, acknowledgements: true)
        let writerDocument = SharedDocument()
        let kept = try edit(writerDocument) { try $0.map("m").set("k", .int(1)) }
        try await writer.send(.update(kept))
        #expect(await writer.next(where: isAcknowledgement) == .acknowledgement(count: 1))

        let reader = try await SyncTestClient.connect(port: live.port, document: "notes", token: readToken)
        try await reader.send(.syncStep1(stateVector: [0]))
        guard case .syncStep2(let state)? = await reader.next(where: { if case .syncStep2 = $0 { true } else { false } }) else {
            Issue.record("the read-only client got no state")
            return
        }
        let readerDocument = SharedDocument()
        try readerDocument.applyUpdate(state)
        // What every Yjs client sends on connecting: a step 2 with nothing new. Not refused.
        try await reader.send(.syncStep2(update: try readerDocument.encodeStateAsUpdate(stateVector: readerDocument.encodeStateVector())))
        let refused = try edit(readerDocument) { try $0.map("m").set("k", .int(2)) }
        try await reader.send(.update(refused))
        guard case .permissionDenied(let reason)? = await reader.next(where: { if case .permissionDenied = $0 { true } else { false } }) else {
            Issue.record("no permission-denied")
            return
        }
        #expect(reason.contains("read-only"))
        // The connection stays; the refused edit reached nobody and is not stored.
        try await reader.send(.queryAwareness)
        #expect(await reader.next(where: { if case .awareness = $0 { true } else { false } }) != nil)
        #expect(reader.all.filter { if case .permissionDenied = $0 { true } else { false } }.count == 1)
        let stored = try await fetchDocument(port: live.port, "notes")
        #expect(try entries(stored.map("m")) == ["k": .int(1)])
        #expect(!writer.all.contains(where: isUpdate))
        await reader.close()
        await writer.close()
        await live.stop()
    }

    /// y-websocket's client forwards every awareness change it sees, other clients' too. When a
    /// connection leaves, only the clients it announced first are removed, not everyone's
    /// presence.
    @Test func aLeavingConnectionRemovesOnlyTheAwarenessClientsItAnnounced() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let alice = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        let carol = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        let alicePresence = AwarenessUpdate(entries: [.init(client: 1, clock: 1, state: #"{"name":"alice"}"#)])
        try await alice.send(.awareness(alicePresence.encoded()))
        #expect(await carol.next(where: { $0 == .awareness(alicePresence.encoded()) }) != nil)
        // Carol announces herself and forwards alice's state (same clock, then a newer one), as
        // WebsocketProvider does.
        let carolPresence = AwarenessUpdate(entries: [
            .init(client: 3, clock: 1, state: #"{"name":"carol"}"#),
            .init(client: 1, clock: 1, state: #"{"name":"alice"}"#),
        ])
        try await carol.send(.awareness(carolPresence.encoded()))
        #expect(await alice.next(where: { $0 == .awareness(carolPresence.encoded()) }) != nil)
        let forwardedNewer = AwarenessUpdate(entries: [.init(client: 1, clock: 2, state: #"{"name":"alice","cursor":4}"#)])
        try await carol.send(.awareness(forwardedNewer.encoded()))
        #expect(await alice.next(where: { $0 == .awareness(forwardedNewer.encoded()) }) != nil)

        await carol.close()
        let carolLeft = AwarenessUpdate(entries: [.init(client: 3, clock: 2, state: "null")])
        #expect(await alice.next(where: { $0 == .awareness(carolLeft.encoded()) }) != nil, "carol's leaving was not announced")
        // Alice is still present for a newcomer.
        let newcomer = try await SyncTestClient.connect(port: live.port, document: "room", token: LiveSyncServer.adminToken)
        try await newcomer.send(.queryAwareness)
        guard case .awareness(let bytes)? = await newcomer.next(where: { if case .awareness = $0 { true } else { false } }) else {
            Issue.record("no awareness for the newcomer")
            return
        }
        let present = try AwarenessUpdate(decoding: bytes)
        #expect(present.entries.map(\.client) == [1], "alice's presence went with carol's connection")
        #expect(!alice.all.contains { message in
            guard case .awareness(let bytes) = message, let update = try? AwarenessUpdate(decoding: bytes) else { return false }
            return update.entries.contains { $0.client == 1 && $0.isRemoval }
        }, "alice was told she left")
        await newcomer.close()
        await alice.close()
        await live.stop()
    }

    @Test func refusedBeforeTheUpgradeWithJSONProblems() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let other = try await live.issueToken(document: "other", access: "read-write")
        func problem(_ path: String, token: String?) async throws -> (Int, String) {
            let (status, data) = try await live.request("GET", path, token: token)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return (status, object?["error"] as? String ?? "")
        }
        #expect(try await problem("/sync/board", token: nil) == (401, "unauthorized"))
        #expect(try await problem("/sync/board", token: "shd_wrong") == (401, "unauthorized"))
        #expect(try await problem("/sync/board", token: other) == (403, "forbidden"))
        #expect(try await problem("/sync/-bad", token: LiveSyncServer.adminToken) == (400, "invalid-name"))
        #expect(try await problem("/sync/board?token=\(LiveSyncServer.adminToken)", token: nil) == (426, "upgrade-required"))
        // A WebSocket client with another document's token is not upgraded.
        await #expect(throws: (any Error).self) {
            _ = try await SyncTestClient.connect(port: live.port, document: "board", token: other)
        }
        // Revoking a token closes its connection.
        let revocable = try await live.issueToken(document: "other", access: "read")
        let client = try await SyncTestClient.connect(port: live.port, document: "other", token: revocable)
        let (_, listed) = try await live.request("GET", "/admin/documents/other/tokens")
        let tokens = try JSONSerialization.jsonObject(with: listed) as? [[String: Any]] ?? []
        #expect(tokens.map { $0["access"] as? String } == ["read-write", "read"])
        let id = tokens.last?["id"] as? Int ?? -1
        #expect(try await live.request("DELETE", "/admin/documents/other/tokens/\(id)").0 == 204)
        #expect(await client.next() == .syncStep1(stateVector: [0]))
        // Waits until the connection ends (or a generous bound for a server that never closes it).
        #expect(await client.next() == nil)
        #expect(client.hasEnded, "the revoked client's connection is still open")
        await live.stop()
    }

    @Test func malformedMessagesCloseOnlyTheirOwnConnection() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let token = LiveSyncServer.adminToken
        let bystander = try await SyncTestClient.connect(port: live.port, document: "doc", token: token, acknowledgements: true)
        let document = SharedDocument()
        let before = try edit(document) { try $0.map("m").set("a", .int(1)) }
        try await bystander.send(.update(before))
        #expect(await bystander.next(where: isAcknowledgement) == .acknowledgement(count: 1))

        let cases: [(String, [UInt8], String)] = [
            ("unknown message type", [7], "malformed-message"),
            ("unknown sync step", [0, 5, 0], "malformed-message"),
            ("truncated", [0, 2, 10, 1], "malformed-message"),
            ("trailing bytes", [3, 9], "malformed-message"),
            ("an update that does not read", [0, 2, 3, 1, 200, 3], "malformed-update"),
            ("a state vector that does not read", [0, 0, 2, 5, 200], "malformed-message"),
            ("awareness that is not JSON", [1, 7, 1, 1, 1, 3, 123, 123, 123], "malformed-message"),
            ("an acknowledgement from a client", [100, 1], "malformed-message"),
        ]
        for (name, bytes, code) in cases {
            let client = try await SyncTestClient.connect(port: live.port, document: "doc", token: token)
            try await client.send(bytes: bytes)
            let frame = await client.closeFrame()
            #expect(frame?.closeCode == .dataInconsistentWithMessage, "\(name): \(String(describing: frame))")
            #expect(frame?.reason?.hasPrefix(code + ":") == true, "\(name): \(String(describing: frame?.reason))")
        }
        let text = try await SyncTestClient.connect(port: live.port, document: "doc", token: token)
        try await text.sendText("hello")
        let frame = await text.closeFrame()
        #expect(frame?.closeCode == .unacceptableData, "text frame: \(String(describing: frame))")
        #expect(frame?.reason?.hasPrefix("text-frame:") == true)

        // The bystander was never disturbed and the document holds exactly what it sent.
        let after = try edit(document) { try $0.map("m").set("b", .int(2)) }
        try await bystander.send(.update(after))
        #expect(await bystander.next(where: isAcknowledgement) == .acknowledgement(count: 2))
        let stored = try await fetchDocument(port: live.port, "doc")
        #expect(try entries(stored.map("m")) == ["a": .int(1), "b": .int(2)])
        await bystander.close()
        await live.stop()
    }

    @Test func updatesAreCompactedAndSurviveUnloadAndRestart() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        var configuration = ServerConfiguration()
        configuration.sync.compactAfterUpdates = 5
        configuration.clock = clock
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let client = try await SyncTestClient.connect(port: live.port, document: "log", token: LiveSyncServer.adminToken, acknowledgements: true)
        let document = SharedDocument()
        for index in 0..<12 {
            try await client.send(.update(try edit(document) { try $0.array("items").push([.int(Int64(index))]) }))
        }
        #expect(await client.next(where: { $0 == .acknowledgement(count: 12) }) != nil)
        await client.close()
        let (status, data) = try await live.request("GET", "/admin/documents/log")
        let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        #expect(status == 200)
        #expect((summary["updates"] as? Int ?? 99) <= 5, "not compacted: \(summary)")
        #expect((summary["snapshotBytes"] as? Int ?? 0) > 0, "no snapshot: \(summary)")
        // Unloaded once the last client has been gone for the delay, and not before. The
        // server announces neither a detach nor an unload: both are gauges, read by polling.
        let sync = live.server.sync
        await pollUntil("the last connection detached", observed: { "\(await sync.connectionCount(document: "log")) connections" }) {
            await sync.connectionCount(document: "log") == 0
        }
        await clock.advance(by: configuration.sync.unloadAfter - .nanoseconds(1))
        #expect(await sync.isLoaded(document: "log"), "unloaded before the delay")
        await clock.advance(by: .nanoseconds(1))
        await pollUntil("the document to be unloaded") { await !sync.isLoaded(document: "log") }
        await live.stop()

        let restarted = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let reloaded = try await fetchDocument(port: restarted.port, "log")
        #expect(try reloaded.array("items").toJSON() == document.array("items").toJSON())
        let (_, bytes) = try await restarted.request("GET", "/admin/documents/log/update")
        let whole = SharedDocument()
        try whole.applyUpdate([UInt8](bytes))
        #expect(try whole.array("items").toJSON() == document.array("items").toJSON())
        await restarted.stop()
    }

    @Test func aClientThatDoesNotReadIsCutOffAndNobodyElseWaits() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.sync.maxQueueBytes = 4 << 20
        configuration.sync.pingInterval = Self.pingIntervalPastTheTest
        // The document grows to 25 MiB: past the default document size limit.
        configuration.sync.maxMessageBytes = 64 << 20
        configuration.sync.maxDocumentBytes = 64 << 20
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let token = LiveSyncServer.adminToken
        let slow = try await SyncTestClient.connect(port: live.port, document: "feed", token: token, reading: false)
        let reader = try await SyncTestClient.connect(port: live.port, document: "feed", token: token)
        let writer = try await SyncTestClient.connect(port: live.port, document: "feed", token: token, acknowledgements: true)
        // Each client is greeted once the server has attached it.
        for client in [slow, reader, writer] where client !== slow { #expect(await client.next() == .syncStep1(stateVector: [0])) }
        // The client that does not read cannot see its greeting, and the server announces no
        // attach: the count is polled, as is the cut below (that client sees no close either).
        let sync = live.server.sync
        await pollUntil("three attached connections", observed: { "\(await sync.connectionCount(document: "feed"))" }) {
            await sync.connectionCount(document: "feed") == 3
        }
        let document = SharedDocument()
        let chunk = String(repeating: "x", count: 64 << 10)
        let count = 400  // 25 MiB: more than loopback's socket buffers hold for the slow client
        // One update at a time, each received by the reading client before the next is sent: its
        // queue never holds more than one, while the client that does not read accumulates all.
        var received = 0
        for index in 0..<count {
            try await writer.send(.update(try edit(document) { try $0.map("m").set("k\(index)", .string(chunk)) }))
            guard await reader.next(where: isUpdate) != nil else { break }
            received += 1
        }
        #expect(received == count, "the reading client missed updates")
        #expect(await writer.next(where: { $0 == .acknowledgement(count: count) }) != nil)
        await pollUntil("the slow client cut off", observed: { "\(await sync.connectionCount(document: "feed")) connections" }) {
            await sync.connectionCount(document: "feed") == 2
        }
        await slow.close()
        await reader.close()
        await writer.close()
        await live.stop()
    }
}

@Suite(.tags(.integration)) struct SyncBudgetTests {
    /// Clients that never read hold one shared copy of each broadcast; past the server-wide budget
    /// the one with the most waiting is cut first, and the accounting returns to zero afterwards.
    @Test func theServerWideBudgetCutsTheSlowestReaderFirstAndIsReturnedWhenClientsLeave() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.sync.maxQueueBytes = 64 << 20
        configuration.sync.maxQueuedBytesTotal = 8 << 20
        configuration.sync.maxMessageBytes = 128 << 20
        configuration.sync.maxDocumentBytes = 128 << 20
        configuration.sync.pingInterval = SyncEndpointTests.pingIntervalPastTheTest
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        // Clients that do not read see neither their greeting nor their cut, and the server
        // announces no attach or detach: connection counts and queued bytes are polled.
        let sync = live.server.sync
        func waitForConnections(_ count: Int, _ description: String, sourceLocation: SourceLocation = #_sourceLocation) async {
            await pollUntil("\(count) connections: \(description)", observed: { "\(await sync.connectionCount(document: "wide"))" },
                            sourceLocation: sourceLocation) { await sync.connectionCount(document: "wide") == count }
        }
        let tokenA = try await live.issueToken(document: "wide", access: "read")
        let tokenB = try await live.issueToken(document: "wide", access: "read")
        let early = try await SyncTestClient.connect(port: live.port, document: "wide", token: tokenA, reading: false)
        let writer = try await SyncTestClient.connect(port: live.port, document: "wide", token: LiveSyncServer.adminToken, acknowledgements: true)
        await waitForConnections(2, "both attached")
        let document = SharedDocument()
        let chunk = String(repeating: "y", count: 256 << 10)
        var sent = 0
        func send() async throws {
            sent += 1
            try await writer.send(.update(try edit(document) { try $0.map("m").set("k\(sent)", .string(chunk)) }))
            let count = sent
            #expect(await writer.next(where: { $0 == .acknowledgement(count: count) }) != nil)
            #expect(sync.queuedOutgoingBytes <= 8 << 20)
        }
        // 7 MiB waits for (or sits in the socket of) the early client: under the budget.
        for _ in 0..<28 { try await send() }
        // Under the budget nobody is cut: the count is still 2 once the writes are acknowledged.
        #expect(await sync.connectionCount(document: "wide") == 2, "cut before the budget was reached")
        let late = try await SyncTestClient.connect(port: live.port, document: "wide", token: tokenB, reading: false)
        await waitForConnections(3, "the late client attached")
        // Both hold the same broadcasts; the early one has more waiting, so it is cut first.
        for _ in 0..<200 where await sync.connectionCount(document: "wide") == 3 { try await send() }
        await waitForConnections(2, "one cut past the budget")
        // The survivor is the late client: revoking its token closes one more connection.
        let (_, listed) = try await live.request("GET", "/admin/documents/wide/tokens")
        let ids = (try JSONSerialization.jsonObject(with: listed) as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        #expect(ids.count == 2)
        #expect(try await live.request("DELETE", "/admin/documents/wide/tokens/\(ids.last ?? -1)").0 == 204)
        await waitForConnections(1, "only the early client left after revoking the late one's token (else the late client had been cut)")
        await writer.close()
        await early.close()
        await late.close()
        await pollUntil("no bytes counted after every client left", observed: { "\(sync.queuedOutgoingBytes) bytes" }) {
            sync.queuedOutgoingBytes == 0
        }
        await live.stop()
    }
}

@Suite(.tags(.integration)) struct SyncDocumentLimitTests {
    /// An update that would take the document's full state past its size limit is refused with a
    /// typed reason and changes nothing, so a full sync step 2 always fits the message cap.
    @Test func anUpdatePastTheDocumentSizeLimitIsRefusedAndChangesNothing() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.sync.maxDocumentBytes = 200_000
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let token = LiveSyncServer.adminToken
        let writer = try await SyncTestClient.connect(port: live.port, document: "big", token: token, acknowledgements: true)
        let document = SharedDocument()
        try await writer.send(.update(try edit(document) { try $0.map("m").set("a", .string(String(repeating: "a", count: 150_000))) }))
        #expect(await writer.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        try await writer.send(.update(try edit(document) { try $0.map("m").set("b", .string(String(repeating: "b", count: 100_000))) }))
        let frame = await writer.closeFrame()
        #expect(frame?.closeCode == .policyViolation, "\(String(describing: frame))")
        #expect(frame?.reason?.hasPrefix("document-too-large:") == true, "\(String(describing: frame?.reason))")
        // Unchanged: a newcomer's full sync has only the first key and fits the limit.
        let stored = try await fetchDocument(port: live.port, "big")
        #expect(try entries(stored.map("m")) == ["a": .string(String(repeating: "a", count: 150_000))])
        #expect(try stored.encodeStateAsUpdate().count <= 200_000)
        // The document still takes updates that fit.
        let other = try await SyncTestClient.connect(port: live.port, document: "big", token: token, acknowledgements: true)
        let small = SharedDocument()
        try small.applyUpdate(try stored.encodeStateAsUpdate())
        try await other.send(.update(try edit(small) { try $0.map("m").set("c", .int(3)) }))
        #expect(await other.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        await other.close()
        await live.stop()
    }

    @Test func anUpdatePastTheDocumentClientCapIsRefusedAndChangesNothing() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.sync.maxDocumentClients = 5
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let token = LiveSyncServer.adminToken
        let writer = try await SyncTestClient.connect(port: live.port, document: "crowd", token: token, acknowledgements: true)
        for index in 0..<5 {
            let author = SharedDocument()
            try await writer.send(.update(try edit(author) { try $0.map("m").set("k\(index)", .int(Int64(index))) }))
            #expect(await writer.next(where: isAcknowledgement) == .acknowledgement(count: index + 1))
        }
        // One update naming two new clients: refused whole.
        let sixth = SharedDocument(), seventh = SharedDocument()
        let both = try Updates.merge([
            try edit(sixth) { try $0.map("m").set("k5", .int(5)) },
            try edit(seventh) { try $0.map("m").set("k6", .int(6)) },
        ])
        try await writer.send(.update(both))
        let frame = await writer.closeFrame()
        #expect(frame?.closeCode == .policyViolation, "\(String(describing: frame))")
        #expect(frame?.reason?.hasPrefix("too-many-clients:") == true, "\(String(describing: frame?.reason))")
        let stored = try await fetchDocument(port: live.port, "crowd")
        #expect(stored.stateVector.count == 5)
        #expect(try stored.map("m").keys.sorted() == ["k0", "k1", "k2", "k3", "k4"])
        await live.stop()
    }
}

@Suite(.tags(.integration)) struct SyncNameAndAwarenessLimitTests {
    @Test func pathsWithEmptyComponentsAreInvalidNames() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        for path in ["/sync/d1/", "/sync//d1"] {
            let (status, data) = try await live.request("GET", path)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(status == 400, "\(path)")
            #expect(object?["error"] as? String == "invalid-name", "\(path)")
        }
        await #expect(throws: (any Error).self) {
            _ = try await SyncTestClient.connect(port: live.port, document: "d1/", token: LiveSyncServer.adminToken)
        }
        #expect(await live.server.sync.isLoaded(document: "d1") == false)
        await live.stop()
    }

    @Test func awarenessClientsPastTheCapsCloseTheConnectionAndAreNotKept() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.sync.maxAwarenessClientsPerConnection = 3
        configuration.sync.maxAwarenessClientsPerDocument = 4
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: configuration)
        let token = LiveSyncServer.adminToken
        func awareness(_ clients: Range<Int>) -> SyncMessage {
            .awareness(AwarenessUpdate(entries: clients.map { .init(client: $0, clock: 1, state: "{\"n\":\($0)}") }).encoded())
        }
        // One connection inventing four clients: refused whole.
        let inventor = try await SyncTestClient.connect(port: live.port, document: "room", token: token)
        try await inventor.send(awareness(100..<104))
        let frame = await inventor.closeFrame()
        #expect(frame?.closeCode == .policyViolation, "\(String(describing: frame))")
        #expect(frame?.reason?.hasPrefix("too-many-awareness-clients:") == true, "\(String(describing: frame?.reason))")
        // Within the per-connection cap, but past the document's.
        let first = try await SyncTestClient.connect(port: live.port, document: "room", token: token)
        try await first.send(awareness(1..<4))
        let second = try await SyncTestClient.connect(port: live.port, document: "room", token: token)
        #expect(await second.next(where: { if case .awareness = $0 { true } else { false } }) == awareness(1..<4))
        try await second.send(awareness(10..<12))
        let secondFrame = await second.closeFrame()
        #expect(secondFrame?.reason?.hasPrefix("too-many-awareness-clients:") == true, "\(String(describing: secondFrame?.reason))")
        // A newcomer sees only the three kept clients.
        let newcomer = try await SyncTestClient.connect(port: live.port, document: "room", token: token)
        #expect(await newcomer.next(where: { if case .awareness = $0 { true } else { false } }) == awareness(1..<4))
        await newcomer.close()
        await first.close()
        await live.stop()
    }
}
