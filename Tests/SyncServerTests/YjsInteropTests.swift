import Foundation
import SharedDocument
import StateHubServer
import Testing

/// Real Yjs clients (node-yjs + y-websocket's WebsocketProvider under `node`) against our server
/// (docs/sync.md §5). They fail, not skip, when node or the packages are missing.
@Suite(.tags(.integration)) struct YjsInteropTests {
    @Test func yjsClientsAndANativeClientConvergeThroughOurServerAcrossAReconnect() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let token = try await live.issueToken(document: "board-alpha", access: "read-write")
        let a = try YjsPeer(name: "a", port: live.port, document: "board-alpha", token: token)
        let b = try YjsPeer(name: "b", port: live.port, document: "board-alpha", token: token)
        defer { a.stop(); b.stop() }
        guard await a.next("synced") != nil else { throw a.failure("sync") }
        guard await b.next("synced") != nil else { throw b.failure("sync") }

        try await a.set("from-a", "1")
        try await b.set("from-b", "2")
        try await a.waitFor("from-b", "2")
        try await b.waitFor("from-a", "1")

        // A goes offline and edits; B and a native client edit meanwhile; A comes back.
        try a.send(["op": "disconnect"])
        await a.next("status", where: { $0["status"]?.string == "disconnected" })
        try await a.set("offline-a", "3")
        try await b.set("while-away", "4")
        let native = try await SyncTestClient.connect(port: live.port, document: "board-alpha", token: token, acknowledgements: true)
        let nativeDocument = SharedDocument()
        try await native.send(.syncStep1(stateVector: [0]))
        guard case .syncStep2(let state)? = await native.next(where: { if case .syncStep2 = $0 { true } else { false } }) else {
            throw SyncTestError("the native client got no state")
        }
        try nativeDocument.applyUpdate(state)
        try await native.send(.update(try edit(nativeDocument) { try $0.map("m").set("native", .string("5")) }))
        #expect(await native.next(where: isAcknowledgement) != nil)
        try a.send(["op": "connect"])
        try await a.waitFor("while-away", "4")
        try await a.waitFor("native", "5")
        try await b.waitFor("offline-a", "3")
        try await b.waitFor("native", "5")

        let expected = ["from-a": "1", "from-b": "2", "offline-a": "3", "while-away": "4", "native": "5"]
        #expect(try await a.dump() == expected)
        #expect(try await b.dump() == expected)
        let stored = try await fetchDocument(port: live.port, "board-alpha")
        let storedMap = try stored.map("m")
        for (key, value) in expected { #expect(try storedMap.get(key) == .string(value), "\(key) on the server") }
        await native.close()
        await live.stop()
    }

    @Test func aReadOnlyYjsClientIsDeniedAndItsEditStaysLocal() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let writeToken = try await live.issueToken(document: "notes", access: "read-write")
        let readToken = try await live.issueToken(document: "notes", access: "read")
        let writer = try YjsPeer(name: "writer", port: live.port, document: "notes", token: writeToken)
        let reader = try YjsPeer(name: "reader", port: live.port, document: "notes", token: readToken)
        defer { writer.stop(); reader.stop() }
        guard await writer.next("synced") != nil else { throw writer.failure("sync") }
        guard await reader.next("synced") != nil else { throw reader.failure("sync") }
        try await writer.set("w", "1")
        try await reader.waitFor("w", "1")

        try await reader.set("r", "local only")
        guard let denied = await reader.next("permission-denied") else { throw reader.failure("permission-denied") }
        #expect(denied["reason"]?.string?.contains("read-only") == true)
        // Reading still works after the refusal; the edit stays on the reader only.
        try await writer.set("w2", "2")
        try await reader.waitFor("w2", "2")
        #expect(try await writer.dump() == ["w": "1", "w2": "2"])
        #expect(try await reader.dump() == ["w": "1", "w2": "2", "r": "local only"])
        let stored = try await fetchDocument(port: live.port, "notes")
        #expect(try stored.map("m").get("r") == nil)
        await live.stop()
    }
}
