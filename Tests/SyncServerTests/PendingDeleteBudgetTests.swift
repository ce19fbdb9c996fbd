import Foundation
import SharedDocument
import StateHubServer
import Testing

/// A document keeps at most 10,000 pending delete ranges of one client (docs/sync.md §2.5): an
/// update whose delete set named 1.5 million ranges of the client an honest editor types under
/// was stored and made each of that editor's updates cost seconds of server CPU.
@Suite(.tags(.integration)) struct PendingDeleteBudgetTests {
    /// An update; `structs` already encoded (count included), then a delete set of `ranges`
    /// one-clock ranges of `client`, every other clock from `from`.
    static func update(structs: [UInt8] = [0], deleting ranges: Int, of client: Int, from: Int) -> [UInt8] {
        var bytes = structs
        for value in [1, client, ranges] { DeleteSetClientBudgetTests.varUint(value, into: &bytes) }
        for index in 0..<ranges {
            DeleteSetClientBudgetTests.varUint(from + 2 * index, into: &bytes)
            DeleteSetClientBudgetTests.varUint(1, into: &bytes)
        }
        return bytes
    }

    @Test func rangesPastTheBudgetAreRefusedAndTheEditorGoesOn() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let editor = SharedDocument(clientID: 7)

        let attacker = try await SyncTestClient.connect(port: live.port, document: "doc", token: LiveSyncServer.adminToken)
        try await attacker.send(.update(Self.update(deleting: 10_001, of: 7, from: 1_000_000)))
        let frame = await attacker.closeFrame()
        #expect(frame?.reason?.hasPrefix("too-many-pending-deletes:") == true, "\(String(describing: frame?.reason))")

        // Structs that wait for a missing dependency do not carry ranges past the budget: one
        // struct of client 5 (30,000 deleted clocks after a struct nobody sent) and 10,001 ranges
        // inside it. Counted as arriving they would leave nothing pending; measured, they do.
        var waiting: [UInt8] = []
        for value in [1, 1, 5, 0] { DeleteSetClientBudgetTests.varUint(value, into: &waiting) }
        waiting.append(0x80 | 1)  // an origin, deleted content
        for value in [999, 0, 30_000] { DeleteSetClientBudgetTests.varUint(value, into: &waiting) }
        let smuggler = try await SyncTestClient.connect(port: live.port, document: "doc", token: LiveSyncServer.adminToken)
        try await smuggler.send(.update(Self.update(structs: waiting, deleting: 10_001, of: 5, from: 0)))
        let smuggled = await smuggler.closeFrame()
        #expect(smuggled?.reason?.hasPrefix("too-many-pending-deletes:") == true, "\(String(describing: smuggled?.reason))")

        // Within the budget the ranges are kept (and stored); sent again they are no change; the
        // editor's own edits go on and are stored.
        let writer = try await SyncTestClient.connect(port: live.port, document: "doc", token: LiveSyncServer.adminToken, acknowledgements: true)
        let kept = Self.update(deleting: 10_000, of: 7, from: 1_000_000)
        try await writer.send(.update(kept))
        try await writer.send(.update(kept))
        for index in 0..<20 {
            try await writer.send(.update(try edit(editor) { try $0.text("notes").insert("x", at: index) }))
        }
        #expect(await writer.next(where: { $0 == .acknowledgement(count: 22) }) != nil)
        let stored = try await fetchDocument(port: live.port, "doc")
        #expect(try stored.text("notes").toString() == String(repeating: "x", count: 20))
        #expect(stored.pending?.deletes.count == 10_000)
        #expect(stored.pending?.structs.isEmpty == true)
        await writer.close()
        await live.stop()
    }
}
