import Foundation
import Testing
@testable import SharedDocument

/// YATA's conflict scan (`integrate`) keeps the items it passed in `ItemScanSet`: a list while
/// short, hashed past 16. Forty replicas edit the same spot concurrently, so later arrivals
/// scan past dozens of concurrent items whose origins differ; the order must be Yjs's.
@Suite(.tags(.integration))
struct ConflictScanTests {
    @Test(arguments: [false, true])
    func fortyConcurrentEditorsAtOneSpotOrderAsYjs(ascending: Bool) async throws {
        var updates: [[UInt8]] = []
        for replica in 1...40 {
            let document = SharedDocument(clientID: 1000 + replica * 37 % 41)
            let text = try document.text("t")
            // "ac" in one struct, then "b" between: an item whose origin and right origin are
            // both inside this replica's run.
            try text.insert("a", at: 0)
            try text.insert("c", at: 1)
            try text.insert("b\(replica % 10)", at: 1)
            updates.append(try document.encodeStateAsUpdate())
        }
        let order = ascending ? Array(updates.indices) : Array(updates.indices.reversed())
        let swift = SharedDocument(clientID: 1)
        _ = try swift.text("t")
        let yjs = try PeerProcess(.yjs)
        try await yjs.send(["op": "new", "id": 1, "client": 2, "roots": testRootsForPeers])
        for index in order {
            try swift.applyUpdate(updates[index])
            try await yjs.send(["op": "apply", "id": 1, "update": base64(updates[index])])
        }
        let theirs = try await yjs.bytes(try yjs.send(["op": "encode", "id": 1]), "update")
        #expect(try swift.encodeStateAsUpdate() == theirs)
        let json = try await yjs.send(["op": "json", "id": 1])["json"] as? String
        let theirText = json.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["t"] as? String }
        #expect(theirText != nil)
        #expect(try swift.text("t").toString() == theirText)
        #expect(try swift.text("t").toString().count == 40 * 4)
    }
}
