import Foundation
import Testing
@testable import SharedDocument
import StateHubTesting

/// Two updates hold a struct at the same clock, an Item in one and the GC struct its
/// sender collected it into in the other. Yjs's reader comparator returns −1 both ways for that
/// pair, so the struct `mergeUpdates` keeps is the one V8's sort puts first
/// (docs/shared-document.md, "Document-free functions"); pending structs are kept as such a
/// merge, so a document's own encoding depends on it too.
@Suite(.tags(.integration), .serialized)
struct MergeTieTests {
    /// Client 1's structs from `cut` on (the clocks before held back, so receivers keep them
    /// pending): a nested array (clock 1) holding two values (clocks 2 and 3), before and after
    /// the array is deleted and its values collected into a GC struct.
    func halves(cut: Int) throws -> (item: [UInt8], gc: [UInt8], first: [UInt8]) {
        let author = SharedDocument(clientID: 1)
        let array = try author.array("a")
        try array.push([.string("first")])
        let nested = try array.insertArray(at: 1)
        try nested.push([.int(7)])
        try nested.push([.string("eight")])
        let live = try author.encodeStateAsUpdate()
        try array.delete(at: 1)
        let collected = try author.encodeStateAsUpdate()
        let from = Updates.encodeStateVector([1: cut])
        return (try Updates.diff(live, stateVector: from), try Updates.diff(collected, stateVector: from), live)
    }

    @Test("mergeUpdates keeps the struct Yjs keeps when an Item and a GC struct share a clock, in any order", arguments: [1, 2, 3])
    func mergeOrders(cut: Int) async throws {
        let peer = try PeerProcess(.yjs)
        let (item, gc, first) = try halves(cut: cut)
        let orders: [[[UInt8]]] = [[item, gc], [gc, item], [item, gc, item], [gc, item, gc], [item, item, gc], [gc, gc, item],
                                   [first, gc], [gc, first], [item, first, gc], [gc, item, first, gc, item],
                                   (0..<63).map { $0 % 3 == 0 ? gc : item }, (0..<70).map { $0 % 3 == 0 ? gc : item }]
        for (index, updates) in orders.enumerated() {
            let ours = try Updates.merge(updates)
            let theirs = try await peer.bytes(try peer.send(["op": "merge", "updates": updates.map(base64)]), "update")
            #expect(ours == theirs, "cut \(cut), order \(index): mergeUpdates differs from Yjs's")
        }
    }

    @Test("A pending Item and the GC struct that arrives for its clock encode as Yjs, before and after the gap fills", arguments: [false, true], [1, 2, 3])
    func pendingItemThenGC(gcFirst: Bool, cut: Int) async throws {
        let peer = try PeerProcess(.yjs)
        let (item, gc, first) = try halves(cut: cut)
        try await peer.send(["op": "new", "id": 1, "client": 9, "roots": testRootsForPeers])
        let ours = SharedDocument(clientID: 9)
        for (root, kind) in testRoots { _ = try ours.root(root, kind: kind) }
        for update in gcFirst ? [gc, item, first] : [item, gc, first] {
            try ours.applyUpdate(update)
            try await peer.send(["op": "apply", "id": 1, "update": base64(update)])
            let theirs = try await peer.bytes(try peer.send(["op": "encode", "id": 1]), "update")
            #expect(try ours.encodeStateAsUpdate() == theirs, "after \(update == first ? "the whole update" : update == gc ? "the collected half" : "the live half")")
            let theirJSON = try await peer.send(["op": "json", "id": 1])["json"] as? String ?? ""
            #expect(canonicalJSON(try ours.toJSON().jsonText) == canonicalJSON(theirJSON))
        }
    }
}
