import Clocks
import Foundation
import SharedDocument
import SharedDocumentSync
import StateHub
import StateHubTestSupport
import Testing

/// The native client's presence rules (docs/sync.md §3.5) on a test clock, with the test playing
/// the server: it reads what the client sends (and when, on the clock) and hands it awareness.
@Suite struct PresenceTests {
    @Test func theLocalStateIsSentWithARisingClockAndRenewedEvery15Seconds() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let connection = try await client.connection()
        #expect(!connection.sentSoFar.contains { $0.awareness != nil }, "a client without presence sends only its query")

        try await client.document.setPresence(["name": "ada"])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 1, #"{"name":"ada"}"#)])
        try await client.document.setPresence(["name": "ada", "cursor": 3])
        let start = client.clock.now
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 2, #"{"name":"ada","cursor":3}"#)])

        // Just before 15 s the state is as set: the answer to a query still carries clock 2.
        // (The clock never stops exactly on a deadline: a `TestClock` sleep asked for the very
        // instant it shows waits for the next advance.)
        await client.clock.advance(by: .seconds(15) - .milliseconds(1))
        connection.deliver(.queryAwareness)
        #expect(await connection.nextAwareness()?.entries.first?.clock == 2, "renewed before 15 s")
        await client.clock.advance(by: .milliseconds(2))
        let renewal = await connection.nextAwareness()
        #expect(renewal?.entries == [client.entry(clock: 3, #"{"name":"ada","cursor":3}"#)])
        // The clock may stop at the timer's deadline on its way or reach the advance's end first.
        let renewedAt = try #require(renewal?.at)
        #expect(renewedAt >= start.advanced(by: .seconds(15)) && renewedAt <= start.advanced(by: .seconds(15) + .milliseconds(1)))
        // The next renewal is 15 s after this one.
        await client.clock.advance(by: .seconds(15) + .milliseconds(1))
        let second = await connection.nextAwareness()
        #expect(second?.entries.first?.clock == 4)
        let secondAt = try #require(second?.at)
        #expect(secondAt >= renewedAt.advanced(by: .seconds(15)) && secondAt <= start.advanced(by: .seconds(30) + .milliseconds(2)))

        try await client.document.setPresence(nil)
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 5, "null")], "setting nil announces leaving")
        await client.document.close()
    }

    @Test func aRemoteClientSilentFor30SecondsIsDropped() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let connection = try await client.connection()
        let changes = await client.document.presenceChanges()

        connection.deliver(awareness: [(7, 1, #"{"name":"bo"}"#)])
        #expect(await waitFor("client 7 added", in: changes) == PresenceChange(added: [7]))
        #expect(await client.document.remotePresence == [7: ["name": "bo"]])
        await client.clock.advance(by: .seconds(20))
        connection.deliver(awareness: [(8, 1, #"{"name":"cy"}"#)])
        #expect(await waitFor("client 8 added", in: changes) == PresenceChange(added: [8]))

        // Just before 30 s client 7 is still there: the next change is the marker, not its removal.
        await client.clock.advance(by: .seconds(10) - .milliseconds(1))
        connection.deliver(awareness: [(9, 1, #"{"name":"marker"}"#)])
        #expect(await waitFor("client 9 added", in: changes) == PresenceChange(added: [9]), "client 7 dropped before 30 s")
        await client.clock.advance(by: .milliseconds(2))
        #expect(await waitFor("client 7 dropped", in: changes) == PresenceChange(removed: [7]))
        #expect(await client.document.remotePresence == [8: ["name": "cy"], 9: ["name": "marker"]])
        await client.clock.advance(by: .seconds(20))
        #expect(await waitFor("client 8 dropped", in: changes) == PresenceChange(removed: [8]))
        await client.clock.advance(by: .seconds(10))
        #expect(await waitFor("client 9 dropped", in: changes) == PresenceChange(removed: [9]))
        #expect(await client.document.remotePresence.isEmpty)
        await client.document.close()
    }

    @Test func aRemoteEntryIsAppliedWhenItsClockIsNewerOrItRemovesAtTheSameClock() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let connection = try await client.connection()
        let changes = await client.document.presenceChanges()
        let steps: [(entry: (Int, Int, String), change: PresenceChange?)] = [
            ((7, 3, #"{"n":"a"}"#), PresenceChange(added: [7])),
            ((7, 2, #"{"n":"b"}"#), nil),                       // older
            ((7, 3, #"{"n":"b"}"#), nil),                       // the same clock with a state
            ((7, 2, "null"), nil),                              // an older removal
            ((7, 3, "null"), PresenceChange(removed: [7])),     // a removal at the same clock
            ((7, 3, #"{"n":"c"}"#), nil),                       // the clock it left with
            ((7, 4, #"{"n":"c"}"#), PresenceChange(added: [7])),
            ((7, 5, #"{"n":"c"}"#), nil),                       // newer, the same state: no change
            ((7, 6, #"{"n":"d"}"#), PresenceChange(updated: [7])),
            ((8, 1, "null"), nil),                              // the removal of a client never seen
        ]
        for step in steps { connection.deliver(awareness: [step.entry]) }
        connection.deliver(awareness: [(100, 1, #"{"n":"marker"}"#)])
        for expected in steps.compactMap(\.change) + [PresenceChange(added: [100])] {
            #expect(await waitFor("the change \(expected)", in: changes) == expected)
        }
        #expect(await client.document.remotePresence == [7: ["n": "d"], 100: ["n": "marker"]])
        await client.document.close()
    }

    @Test func toldOfItsOwnClientTheClientAnswersWithItsStateAtTheNextClock() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let connection = try await client.connection()
        let own = client.clientID
        try await client.document.setPresence(["name": "ada"])
        #expect(await connection.nextAwareness()?.entries.first?.clock == 1)

        // The echo of our own entry changes nothing; the next message is the answer below.
        connection.deliver(awareness: [(own, 1, #"{"name":"ada"}"#)])
        // Removed at our clock (the server's answer to a returning client), then at a newer one.
        connection.deliver(awareness: [(own, 1, "null")])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 2, #"{"name":"ada"}"#)])
        connection.deliver(awareness: [(own, 5, "null")])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 6, #"{"name":"ada"}"#)])
        // A newer state under our id (an earlier run of the app) is answered, never taken.
        connection.deliver(awareness: [(own, 9, #"{"name":"ghost"}"#)])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 10, #"{"name":"ada"}"#)])
        #expect(await client.document.localPresence == ["name": "ada"])
        #expect(await client.document.remotePresence.isEmpty, "our own client is not a remote one")

        try await client.document.setPresence(nil)
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 11, "null")])
        connection.deliver(awareness: [(own, 12, #"{"name":"ghost"}"#)])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 13, "null")], "a ghost of ours is removed")
        await client.document.close()
    }

    @Test func aStateOver32KiBIsRefusedAndNothingIsSent() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let connection = try await client.connection()
        // JSON text of exactly 32 KiB (the quotes count) is taken; one byte more is refused.
        let largest = JSONValue.string(String(repeating: "x", count: 32 * 1024 - 2))
        try await client.document.setPresence(largest)
        #expect(await connection.nextAwareness()?.entries.first?.clock == 1)
        let tooLarge = JSONValue.string(String(repeating: "x", count: 32 * 1024 - 1))
        await #expect(throws: SyncClientError(.presenceTooLarge(bytes: 32 * 1024 + 1, maximum: 32 * 1024))) {
            try await client.document.setPresence(tooLarge)
        }
        #expect(await client.document.localPresence == largest)
        try await client.document.setPresence(["name": "ada"])
        #expect(await connection.nextAwareness()?.entries == [client.entry(clock: 2, #"{"name":"ada"}"#)],
                "the refused state was neither sent nor counted")
        await client.document.close()
        await #expect(throws: SyncClientError(.closed)) { try await client.document.setPresence(["name": "ada"]) }
    }

    @Test func aNewConnectionGetsTheStateAndAQueryAndALostOneDropsTheOthers() async throws {
        let client = try await PresenceClient.open()
        defer { client.remove() }
        let first = try await client.connection()
        let changes = await client.document.presenceChanges()
        try await client.document.setPresence(["name": "ada"])
        #expect(await first.nextAwareness()?.entries.first?.clock == 1)
        first.deliver(awareness: [(7, 4, #"{"name":"bo"}"#)])
        #expect(await waitFor("client 7 added", in: changes) == PresenceChange(added: [7]))

        first.drop()
        #expect(await waitFor("client 7 dropped with the connection", in: changes) == PresenceChange(removed: [7]))
        #expect(await client.document.remotePresence.isEmpty)
        // Reconnected at once (the back-off wait is on the test clock, which stays put).
        await client.document.pause()
        await client.document.resume()
        let second = try await client.connection()
        let handshake = second.sentSoFar
        #expect(handshake.count == 3 && handshake[0].isStep1, "\(handshake.map(\.message))")
        #expect(handshake.dropFirst().first?.awareness == [client.entry(clock: 1, #"{"name":"ada"}"#)])
        #expect(handshake.last?.message == .queryAwareness)
        // The same entry as before: dropping forgot its clock, so the answer brings it back.
        second.deliver(awareness: [(7, 4, #"{"name":"bo"}"#)])
        #expect(await waitFor("client 7 back", in: changes) == PresenceChange(added: [7]))

        await client.document.close()
        #expect(second.sentSoFar.last?.awareness == [client.entry(clock: 2, "null")], "close announces leaving")
    }
}

/// A synced document on a test clock whose connections the test serves.
private struct PresenceClient {
    let document: SyncedDocument
    let clock: TestClock<Duration>
    let transport: ScriptedTransport
    let clientID: Int
    let folder: URL

    static func open() async throws -> PresenceClient {
        let folder = temporaryDataFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try DocumentStore(path: folder.appendingPathComponent("app.sqlite").path)
        let clock = TestClock()
        let transport = ScriptedTransport(clock: clock)
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:1/sync", clock: clock)
        let document = try await SyncedDocument.open("room", store: store, configuration: configuration, transport: transport)
        return PresenceClient(document: document, clock: clock, transport: transport, clientID: await document.clientID, folder: folder)
    }

    /// The next connection the client opens, once its handshake (step 1, query) was sent.
    func connection(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ScriptedConnection {
        guard let connection = await waitFor("a connection", in: transport.connections, sourceLocation: sourceLocation) else {
            throw SyncTestError("the client never connected")
        }
        _ = await waitFor("the query of the handshake", in: connection.sent, sourceLocation: sourceLocation) { $0.message == .queryAwareness }
        return connection
    }

    func entry(clock: Int, _ state: String) -> AwarenessUpdate.Entry {
        AwarenessUpdate.Entry(client: clientID, clock: clock, state: state)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Connections the test plays the server of.
private final class ScriptedTransport: SyncTransport {
    let connections: AsyncStream<ScriptedConnection>
    private let opened: AsyncStream<ScriptedConnection>.Continuation
    private let clock: TestClock<Duration>

    init(clock: TestClock<Duration>) {
        self.clock = clock
        (connections, opened) = AsyncStream.makeStream(of: ScriptedConnection.self)
    }

    func connect(to url: String) async throws -> any SyncConnection {
        let connection = ScriptedConnection(clock: clock)
        opened.yield(connection)
        return connection
    }
}

/// One connection: what the client sent, with the test clock's time, and a way to answer.
private final class ScriptedConnection: SyncConnection {
    struct Sent: Sendable {
        /// Nil when the bytes did not read as a message (the test then fails on it).
        let message: SyncMessage?
        let at: TestClock<Duration>.Instant

        var isStep1: Bool { if case .syncStep1 = message { true } else { false } }
        var awareness: [AwarenessUpdate.Entry]? {
            guard case .awareness(let bytes) = message else { return nil }
            return (try? AwarenessUpdate(decoding: bytes))?.entries
        }
    }

    struct SentAwareness: Sendable {
        let entries: [AwarenessUpdate.Entry]
        let at: TestClock<Duration>.Instant
    }

    let inbound: AsyncThrowingStream<[UInt8], any Error>
    private let inboundSink: AsyncThrowingStream<[UInt8], any Error>.Continuation
    let sent: AsyncStream<Sent>
    private let sentSink: AsyncStream<Sent>.Continuation
    private let log = Locked([Sent]())
    private let clock: TestClock<Duration>

    init(clock: TestClock<Duration>) {
        self.clock = clock
        (inbound, inboundSink) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        (sent, sentSink) = AsyncStream.makeStream(of: Sent.self)
    }

    /// Everything sent so far, oldest first.
    var sentSoFar: [Sent] { log.withLock { $0 } }

    func send(_ message: [UInt8]) {
        let sent = Sent(message: try? SyncMessage(decoding: message), at: clock.now)
        log.withLock { $0.append(sent) }
        sentSink.yield(sent)
    }

    func close() {
        inboundSink.finish()
        sentSink.finish()
    }

    /// The next awareness message the client sends.
    func nextAwareness(sourceLocation: SourceLocation = #_sourceLocation) async -> SentAwareness? {
        let sent = await waitFor("an awareness message", in: sent, sourceLocation: sourceLocation) { $0.awareness != nil }
        return sent.flatMap { sent in sent.awareness.map { SentAwareness(entries: $0, at: sent.at) } }
    }

    func deliver(_ message: SyncMessage) { inboundSink.yield(message.encoded()) }

    func deliver(awareness entries: [(client: Int, clock: Int, state: String)]) {
        deliver(.awareness(AwarenessUpdate(entries: entries.map { AwarenessUpdate.Entry(client: $0.client, clock: $0.clock, state: $0.state) }).encoded()))
    }

    /// The network is lost.
    func drop() { inboundSink.finish(throwing: SyncConnectionClosed(code: nil, reason: "dropped by the test")) }
}
