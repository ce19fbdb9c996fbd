import Foundation
import Testing
@testable import SharedDocument

/// Content SharedDocument keeps without editing it: text formatting, embeds, binary. Made by
/// Yjs, read by Swift, written back: byte-identical to Yjs's own encoding, and Yjs shows the
/// same rich text (`toDelta`) from Swift's bytes.
@Suite(.tags(.integration))
struct RichContentTests {
    @Test func formattingEmbedsAndBinaryRoundTripThroughSwift() async throws {
        let yjs = try PeerProcess(.yjs)
        try await yjs.send(["op": "new", "id": 1, "client": 77, "roots": testRootsForPeers])
        func edit(_ fields: [String: Any]) async throws {
            var command = fields
            if command["path"] == nil { command["path"] = ["t", "text"] }
            try await yjs.send(["op": "edit", "id": 1, "edits": [command]])
        }
        try await edit(["kind": "textInsert", "index": 0, "text": "Hello brave new world"])
        try await edit(["kind": "textFormat", "index": 6, "count": 5, "value": ["bold": true]])
        try await edit(["kind": "textInsertEmbed", "index": 5, "value": ["image": "cat.png"]])
        try await edit(["kind": "textInsertWithAttributes", "index": 0, "text": ">> ", "value": ["italic": true, "color": "#ff0000"]])
        try await edit(["kind": "textFormat", "index": 8, "count": 3, "value": ["bold": NSNull()]])
        try await edit(["kind": "textDelete", "index": 12, "count": 2])
        try await edit(["kind": "mapSetBinary", "path": ["m", "map"], "key": "blob", "values": [0, 1, 2, 254, 255]])
        let theirs = try await yjs.bytes(try yjs.send(["op": "encode", "id": 1]), "update")

        let document = SharedDocument(clientID: 5)
        for (root, kind) in testRoots { _ = try document.root(root, kind: kind) }
        try document.applyUpdate(theirs)
        let ours = try document.encodeStateAsUpdate()
        #expect(ours == theirs, "Swift re-encodes formatted text, embeds and binary differently")
        #expect(try document.map("m").get("blob") == .bytes([0, 1, 2, 254, 255]))

        try await yjs.send(["op": "new", "id": 2, "client": 78, "roots": testRootsForPeers])
        try await yjs.send(["op": "apply", "id": 2, "update": base64(ours)])
        let original = try await yjs.send(["op": "delta", "id": 1, "name": "t"])["delta"] as? String
        let copy = try await yjs.send(["op": "delta", "id": 2, "name": "t"])["delta"] as? String
        #expect(original != nil)
        #expect(copy == original)
        #expect(original?.contains("\"bold\":true") == true)
        await #expect(try document.text("t").toString() == (try yjs.send(["op": "json", "id": 1])["json"] as? String).flatMap { json in
            (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["t"] as? String
        })
    }
}
