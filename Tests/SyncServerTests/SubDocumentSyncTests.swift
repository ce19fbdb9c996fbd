import Foundation
import SharedDocument
import Testing

/// Sub-documents as Yjs applications use them (docs/sync.md §1.5): real Yjs clients
/// (Peers/subdoc-peer.cjs) put a `new Y.Doc()` in their document's map and sync it through a
/// second WebsocketProvider whose room is its guid. Against our server, and against Yjs's own
/// y-websocket server as the control that the scenario is what Yjs does.
@Suite(.tags(.integration)) struct SubDocumentSyncTests {
    static let script = YjsPeer.peers.appendingPathComponent("subdoc-peer.cjs")

    @Test func yjsClientsShareASubDocumentThroughOurServerAcrossAReconnect() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let token = try await live.issueToken(document: "workspace", access: "read-write")
        try await Self.scenario(server: "ws://127.0.0.1:\(live.port)/sync", token: token) { guid in
            // A sub-document's room is a document of its own: it needs a token for its guid.
            try await live.issueToken(document: guid, access: "read-write")
        } checkStored: { guid, subToken, deleted in
            let parent = try await fetchDocument(port: live.port, "workspace", token: token)
            if deleted {
                #expect(parent.subdocuments.isEmpty, "the server still holds the deleted sub-document")
                #expect(try parent.map("m").subdocument("notes") == nil)
            } else {
                #expect(try parent.map("m").subdocument("notes") == SubDocumentReference(guid: guid), "the server holds no reference at m.notes")
                #expect(parent.subdocumentGUIDs == [guid])
                let sub = try await fetchDocument(port: live.port, guid, token: subToken)
                #expect(try sub.map("m").get("title") == .string("Plan"), "the server did not store the sub-document's content at its guid")
            }
        }
        await live.stop()
    }

    @Test func theSameScenarioThroughYjssReferenceServer() async throws {
        let reference = try await YWebsocketServer.start()
        defer { reference.stop() }
        try await Self.scenario(server: reference.url, token: "unused", roomToken: { _ in "unused" }, checkStored: nil)
    }

    /// A creates a sub-document at m.notes and edits it through its own room; B sees the
    /// reference, loads it at that guid and sees A's content; both reconnect and A edits again;
    /// A deletes it and B sees it gone. No connection is ever closed for bytes that do not read.
    static func scenario(server: String, token: String, roomToken: (String) async throws -> String,
                         checkStored: ((_ guid: String, _ subToken: String, _ deleted: Bool) async throws -> Void)?) async throws {
        let a = try YjsPeer(name: "a", server: server, document: "workspace", token: token, script: script)
        let b = try YjsPeer(name: "b", server: server, document: "workspace", token: token, script: script)
        defer { a.stop(); b.stop() }
        guard await a.next("synced") != nil else { throw a.failure("sync") }
        guard await b.next("synced") != nil else { throw b.failure("sync") }

        guard let guid = try await ask(a, ["op": "create", "key": "notes"])["guid"]?.string else { throw a.failure("create") }
        let subToken = try await roomToken(guid)
        try await ask(a, ["op": "load", "key": "notes", "token": subToken])
        guard await a.next("synced", where: { $0["room"]?.string == guid }) != nil else { throw a.failure("sync of the sub-document") }
        try await ask(a, ["op": "subSet", "key": "notes", "field": "title", "value": "Plan"])

        #expect(try await ask(b, ["op": "waitSubdoc", "key": "notes"])["guid"]?.string == guid)
        #expect(try await ask(b, ["op": "subdocs"])["guids"]?.value as? [String] == [guid])
        try await ask(b, ["op": "load", "key": "notes", "token": subToken])
        try await ask(b, ["op": "waitSubValue", "key": "notes", "field": "title", "value": "Plan"])
        try await checkStored?(guid, subToken, false)

        // Both reconnect (the parent's room and the sub-document's); A's next edit reaches B.
        for peer in [a, b] {
            try await ask(peer, ["op": "disconnect"])
            try await ask(peer, ["op": "connect"])
        }
        try await ask(a, ["op": "subSet", "key": "notes", "field": "after", "value": "reconnect"])
        try await ask(b, ["op": "waitSubValue", "key": "notes", "field": "after", "value": "reconnect"])

        try await ask(a, ["op": "delete", "key": "notes"])
        try await ask(b, ["op": "waitGone", "key": "notes"])
        #expect(try await ask(b, ["op": "subdocs"])["guids"]?.value as? [String] == [])
        try await checkStored?(guid, subToken, true)

        for peer in [a, b] {
            let codes = try await ask(peer, ["op": "closes"])["codes"]?.value as? [Int] ?? []
            #expect(!codes.contains(1007), "\(peer.name) was closed for unreadable bytes: \(codes)")
            // One close per provider, from the disconnect above, and no other.
            #expect(codes.count == 2, "\(peer.name)'s connections closed \(codes.count) times: \(codes)")
        }
    }

    /// Sends `command` and waits for its `ok` (matched by op, and key when it has one).
    @discardableResult
    static func ask(_ peer: YjsPeer, _ command: [String: String]) async throws -> [String: AnyHashableSendable] {
        try peer.send(command)
        let op = command["op"], key = command["key"]
        guard let reply = await peer.next("ok", where: { $0["op"]?.string == op && (key == nil || $0["key"]?.string == key) }) else {
            throw peer.failure("\(op ?? "?") \(key ?? "")")
        }
        return reply
    }
}
