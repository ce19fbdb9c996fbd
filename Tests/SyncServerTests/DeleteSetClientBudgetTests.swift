import Foundation
import SharedDocument
import StateHubServer
import Testing

/// The document's client budget counts the clients an update's delete set names: one update
/// whose delete set named 400,000 unknown clients was stored (the budget counted only structs'
/// clients) and made every later update of the document cost 1.5 s.
@Suite(.tags(.integration)) struct DeleteSetClientBudgetTests {
    static func varUint(_ value: Int, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// No structs; a delete set naming `count` clients, one range each.
    static func deletes(clients count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        varUint(0, into: &bytes)
        varUint(count, into: &bytes)
        for client in 1_000_000..<(1_000_000 + count) {
            for value in [client, 1, 0, 1] { varUint(value, into: &bytes) }
        }
        return bytes
    }

    @Test func anUpdateWhoseDeleteSetNamesTooManyClientsIsRefused() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let attacker = try await SyncTestClient.connect(port: live.port, document: "doc", token: LiveSyncServer.adminToken)
        try await attacker.send(.update(Self.deletes(clients: 20_001)))
        let frame = await attacker.closeFrame()
        #expect(frame?.reason?.hasPrefix("too-many-clients:") == true, "\(String(describing: frame?.reason))")
        // Within the budget it is kept pending (and stored), and the document still takes edits.
        let writer = try await SyncTestClient.connect(port: live.port, document: "doc", token: LiveSyncServer.adminToken, acknowledgements: true)
        try await writer.send(.update(Self.deletes(clients: 100)))
        let document = SharedDocument()
        try await writer.send(.update(try edit(document) { try $0.map("m").set("k", .int(1)) }))
        #expect(await writer.next(where: { $0 == .acknowledgement(count: 2) }) != nil)
        let stored = try await fetchDocument(port: live.port, "doc")
        #expect(try entries(stored.map("m")) == ["k": .int(1)])
        #expect(stored.pending?.deletes.count == 100)
        await writer.close()
        await live.stop()
    }
}
