import Foundation
import Testing
@testable import SharedDocument

/// The v2 update format against Yjs (node-yjs 13.5) itself: random histories of three Yjs
/// replicas (maps, arrays, text with formatting and embeds, XML elements, texts and hooks,
/// nested types, deletes, GC on and off, updates delivered out of order so some wait as
/// pending) made by `Peers/yjs-v2-history.cjs`. Every v2 byte Swift writes must be Yjs's (a
/// document's own encoding and a conversion differ where Yjs's do: a map entry with a
/// neighbour keeps its key bit only in the first), and
/// every v2 update Yjs writes must read as Yjs's state. Yrs is not asked: pycrdt 0.14.13
/// exposes no v2 (docs/shared-document.md, "The v2 update format").
@Suite(.tags(.integration), .serialized)
struct UpdateV2DifferentialTests {
    struct History {
        struct Step {
            var v1: [UInt8], v2: [UInt8], v1ToV2: [UInt8], v2ToV1: [UInt8], svFromV2: [UInt8]
        }
        struct Merge {
            var inputs: [Int], v2: [UInt8]
        }
        struct Replica {
            var v1: [UInt8], v1ToV2: [UInt8], v2: [UInt8], sv: [UInt8], diffV2: [UInt8], freshStateV2: [UInt8], freshV1: [UInt8], freshV2: [UInt8], json: String
            /// The guids of the sub-documents a fresh Yjs document holds after reading `v2`.
            var subdocumentGUIDs: [String]
        }
        var steps: [Step] = []
        var merges: [Merge] = []
        var replicas: [Replica] = []
        /// Sub-documents the history created (asked for with `subdocs`).
        var subdocuments = 0
    }

    static func history(seed: Int, gc: Bool, edits: Int, subdocuments: Bool = false, from peer: PeerProcess) async throws -> History {
        let reply = try await peer.send(["op": "history", "seed": seed, "gc": gc, "edits": edits, "subdocs": subdocuments])
        func bytes(_ object: [String: Any], _ field: String) throws -> [UInt8] {
            guard let text = object[field] as? String, let data = Data(base64Encoded: text) else { throw PeerProcess.Failure(description: "missing \(field)") }
            return [UInt8](data)
        }
        var history = History()
        for step in reply["steps"] as? [[String: Any]] ?? [] {
            history.steps.append(.init(v1: try bytes(step, "v1"), v2: try bytes(step, "v2"), v1ToV2: try bytes(step, "v1ToV2"),
                                       v2ToV1: try bytes(step, "v2ToV1"), svFromV2: try bytes(step, "svFromV2")))
        }
        for merge in reply["merges"] as? [[String: Any]] ?? [] {
            history.merges.append(.init(inputs: merge["inputs"] as? [Int] ?? [], v2: try bytes(merge, "v2")))
        }
        for replica in reply["replicas"] as? [[String: Any]] ?? [] {
            history.replicas.append(.init(v1: try bytes(replica, "v1"), v1ToV2: try bytes(replica, "v1ToV2"), v2: try bytes(replica, "v2"), sv: try bytes(replica, "sv"),
                                          diffV2: try bytes(replica, "diffV2"), freshStateV2: try bytes(replica, "freshStateV2"),
                                          freshV1: try bytes(replica, "freshV1"), freshV2: try bytes(replica, "freshV2"),
                                          json: replica["json"] as? String ?? "",
                                          subdocumentGUIDs: replica["subdocGuids"] as? [String] ?? []))
        }
        history.subdocuments = reply["subdocs"] as? Int ?? 0
        return history
    }

    @Test("Swift's v2 bytes are Yjs's; Yjs's v2 reads as Yjs's state", arguments: Array(1...8), [true, false])
    func randomHistory(seed: Int, gc: Bool) async throws {
        let peer = try PeerProcess(.yjs, script: "yjs-v2-history.cjs")
        let history = try await Self.history(seed: seed, gc: gc, edits: 80, from: peer)
        try #require(history.steps.count == 80 && history.replicas.count == 3, "the peer sent a whole history")
        try Self.check(history, gc: gc, context: "seed \(seed), gc \(gc)")
    }

    /// The same with sub-documents (content ref 9, with and without gc, autoLoad and meta) among
    /// the values maps and arrays take.
    @Test("Sub-documents in v2: Swift's bytes are Yjs's; Yjs's v2 reads as Yjs's state", arguments: Array(1...4), [true, false])
    func randomHistoryWithSubdocuments(seed: Int, gc: Bool) async throws {
        let peer = try PeerProcess(.yjs, script: "yjs-v2-history.cjs")
        let history = try await Self.history(seed: seed, gc: gc, edits: 80, subdocuments: true, from: peer)
        try #require(history.steps.count == 80 && history.replicas.count == 3, "the peer sent a whole history")
        try #require(history.subdocuments > 0, "the history holds no sub-document")
        try Self.check(history, gc: gc, context: "seed \(seed), gc \(gc), sub-documents")
    }

    /// Every comparison of one history against what Yjs wrote.
    static func check(_ history: History, gc: Bool, context: String) throws {
        var densest = 0.0
        for (index, step) in history.steps.enumerated() {
            #expect(try Updates.convertV1ToV2(step.v1) == step.v1ToV2, "convertV1ToV2 differs from Yjs's (\(context), step \(index))")
            #expect(try Updates.convertV2ToV1(step.v2) == step.v2ToV1, "convertV2ToV1 differs from Yjs's (\(context), step \(index))")
            #expect(try Updates.encodeStateVectorFromUpdateV2(step.v2) == step.svFromV2, "encodeStateVectorFromUpdateV2 differs (\(context), step \(index))")
            #expect(Updates.format(of: step.v1) == .v1 && Updates.format(of: step.v2) == .v2, "format detection (\(context), step \(index))")
            let structs = try UpdateDecoderV2.read(step.v2).clients.reduce(0) { $0 + $1.structs.count }
            densest = max(densest, Double(structs) / Double(step.v2.count))
        }
        for (index, merge) in history.merges.enumerated() {
            let ours = try Updates.mergeV2(merge.inputs.map { history.steps[$0].v2 })
            #expect(ours == merge.v2, "mergeV2 differs from Yjs's mergeUpdatesV2 (\(context), merge \(index) of steps \(merge.inputs))")
        }
        for (index, replica) in history.replicas.enumerated() {
            densest = max(densest, Double(try UpdateDecoderV2.read(replica.v2).clients.reduce(0) { $0 + $1.structs.count }) / Double(replica.v2.count))
            #expect(try Updates.convertV1ToV2(replica.v1) == replica.v1ToV2, "convertV1ToV2 of a whole state differs from Yjs's (\(context), replica \(index))")
            #expect(try Updates.diffV2(replica.v2, stateVector: replica.sv) == replica.diffV2, "diffV2 differs from Yjs's (\(context), replica \(index))")
            // Read as Yjs reads it: the same document, so the same bytes back in both formats.
            let document = SharedDocument(clientID: 1, gc: gc)
            for (root, kind) in testRoots { _ = try document.root(root, kind: kind) }
            try document.applyUpdateV2(replica.v2)
            #expect(try document.encodeStateAsUpdateV2() == replica.freshV2, "applyUpdateV2 then encodeStateAsUpdateV2 differs from Yjs's (\(context), replica \(index))")
            #expect(try document.encodeStateAsUpdate() == replica.freshV1, "applyUpdateV2 then encodeStateAsUpdate differs from Yjs's (\(context), replica \(index))")
            #expect(try document.encodeStateAsUpdateV2(stateVector: replica.sv) == replica.freshStateV2, "encodeStateAsUpdateV2(stateVector:) differs (\(context), replica \(index))")
            #expect(canonicalJSON(try document.toJSON().jsonText) == canonicalJSON(replica.json), "Swift reads Yjs's v2 as another state (\(context), replica \(index))")
            #expect(document.subdocuments.map(\.guid).sorted() == replica.subdocumentGUIDs, "Swift reads other sub-documents from Yjs's v2 (\(context), replica \(index))")
            // The same update in v1 gives the same document.
            let fromV1 = SharedDocument(clientID: 1, gc: gc)
            try fromV1.applyUpdate(replica.v1)
            #expect(try fromV1.encodeStateAsUpdateV2() == replica.freshV2, "v1 and v2 of one state read alike (\(context), replica \(index))")
        }
        #expect(densest < Double(UpdateDecoderV2.maximumValuesPerByte), "Yjs's densest v2 update holds \(densest) structs per byte (\(context))")
    }
}
