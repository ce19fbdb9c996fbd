import Foundation
import HummingbirdWSClient
import SharedDocument
import StateHubServer
import Testing

/// What the server does with messages and documents past its caps (docs/sync.md §2.5).
@Suite(.tags(.integration)) struct SyncOversizeTests {
    /// A document stored before the limits were lowered loses nothing and is never sent in a
    /// message past the cap: a client lacking more than fits is closed with a typed reason, a
    /// client that holds it still syncs, and it takes no update that leaves it past the limit.
    @Test func aDocumentStoredPastALoweredLimitIsKeptAndNeverSentOversized() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = LiveSyncServer.adminToken
        let holder = SharedDocument()
        let first = try await LiveSyncServer.start(.sqlite(directory: folder))
        let writer = try await SyncTestClient.connect(port: first.port, document: "big", token: token, acknowledgements: true)
        try await writer.send(.update(try edit(holder) { try $0.map("m").set("a", .string(String(repeating: "a", count: 300_000))) }))
        #expect(await writer.next(where: isAcknowledgement) == .acknowledgement(count: 1))
        await writer.close()
        await first.stop()

        var lowered = ServerConfiguration()
        lowered.sync.maxMessageBytes = 200_000
        let live = try await LiveSyncServer.start(.sqlite(directory: folder), configuration: lowered)
        let (status, before) = try await live.request("GET", "/admin/documents/big/update")
        #expect(status == 200)
        let stored = SharedDocument()
        try stored.applyUpdate(Array(before))
        #expect(try entries(stored.map("m")) == ["a": .string(String(repeating: "a", count: 300_000))])

        // A newcomer lacks the whole document: more than one message may carry.
        let newcomer = try await SyncTestClient.connect(port: live.port, document: "big", token: token)
        try await newcomer.send(.syncStep1(stateVector: [0]))
        let frame = await newcomer.closeFrame()
        #expect(frame?.closeCode == .policyViolation, "\(String(describing: frame))")
        #expect(frame?.reason?.hasPrefix("document-too-large:") == true, "\(String(describing: frame?.reason))")
        #expect(newcomer.all.allSatisfy { $0.encoded().count <= 200_000 }, "\(newcomer.all.map { $0.encoded().count })")
        #expect(!newcomer.all.contains { if case .syncStep2 = $0 { true } else { false } })

        // A client that holds it syncs the (empty) difference and stays.
        let reader = try await SyncTestClient.connect(port: live.port, document: "big", token: token, acknowledgements: true)
        try await reader.send(.syncStep1(stateVector: holder.encodeStateVector()))
        guard case .syncStep2(let missing)? = await reader.next(where: { if case .syncStep2 = $0 { true } else { false } }) else {
            Issue.record("no sync step 2 for a client that holds the document")
            return
        }
        #expect(missing.count < 100)
        #expect(!reader.hasEnded)
        // Read-only while past the limit: an update that leaves it there is refused.
        try await reader.send(.update(try edit(holder) { try $0.map("m").set("b", .int(1)) }))
        let refused = await reader.closeFrame()
        #expect(refused?.closeCode == .policyViolation, "\(String(describing: refused))")
        #expect(refused?.reason?.hasPrefix("document-too-large:") == true, "\(String(describing: refused?.reason))")
        let (_, after) = try await live.request("GET", "/admin/documents/big/update")
        #expect(after == before, "the stored document changed")
        await live.stop()
    }
}
