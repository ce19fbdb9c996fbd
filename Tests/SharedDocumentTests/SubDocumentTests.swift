import Foundation
import Testing
@testable import SharedDocument

/// Sub-documents (Yjs's `ContentDoc`, content ref 9) against Yjs 13.5 under node: each history
/// is made by a Yjs replica and by a Swift twin with the same client id, and the twin's
/// encoding must equal Yjs's byte for byte, with the same JSON and the same sub-documents.
@Suite(.tags(.integration), .serialized)
struct SubDocumentTests {
    /// A Yjs replica and its Swift twin.
    final class Twins {
        let yjs: PeerProcess
        let id: Int
        let swift: SharedDocument

        init(_ yjs: PeerProcess, id: Int, client: Int, gc: Bool = true) async throws {
            self.yjs = yjs
            self.id = id
            swift = SharedDocument(clientID: client, gc: gc)
            for (root, kind) in testRoots { _ = try swift.root(root, kind: kind) }
            try await yjs.send(["op": "new", "id": id, "client": client, "gc": gc, "roots": testRootsForPeers])
        }

        /// The same edit on both sides: `edit` for Yjs (yjs-peer.cjs), `body` for Swift.
        func edit(_ edit: [String: Any], _ body: (SharedDocument) throws -> Void) async throws {
            try await yjs.send(["op": "edit", "id": id, "edits": [edit]])
            try body(swift)
        }

        func apply(_ update: [UInt8]) async throws {
            try await yjs.send(["op": "apply", "id": id, "update": base64(update)])
            try swift.applyUpdate(update)
        }

        func yjsUpdate() async throws -> [UInt8] { try await yjs.bytes(try yjs.send(["op": "encode", "id": id]), "update") }

        func yjsSubdocuments() async throws -> [String] {
            ((try await yjs.send(["op": "subdocs", "id": id])["guids"] as? [String]) ?? []).sorted()
        }

        /// Byte-identical encodings, equal JSON, the same sub-documents.
        func expectAlike(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let theirs = try await yjsUpdate()
            #expect(try swift.encodeStateAsUpdate() == theirs, "update differs from Yjs's after \(context)", sourceLocation: sourceLocation)
            let theirJSON = try await yjs.send(["op": "json", "id": id])["json"] as? String
            #expect(try swift.toJSON().jsonText == theirJSON, "toJSON differs from Yjs's after \(context)", sourceLocation: sourceLocation)
            #expect(swift.subdocuments.map(\.guid).sorted() == (try await yjsSubdocuments()), "sub-documents differ after \(context)", sourceLocation: sourceLocation)
        }
    }

    @Test func createdInMapsAndArraysWithOptions() async throws {
        let yjs = try PeerProcess(.yjs)
        let twins = try await Twins(yjs, id: 1, client: 11)
        try await twins.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "notes", "guid": "notes-1", "opts": ["autoLoad": true, "meta": ["title": "Notes"]]]) {
            try $0.map("m").setSubdocument("notes", SubDocumentReference(guid: "notes-1", autoLoad: true, meta: .object(["title": .string("Notes")])))
        }
        try await twins.edit(["kind": "arrayInsertDoc", "path": ["a", "array"], "index": 0, "guid": "page-1", "opts": ["gc": false]]) {
            try $0.array("a").insertSubdocument(SubDocumentReference(guid: "page-1", gc: false), at: 0)
        }
        try await twins.edit(["kind": "arrayInsert", "path": ["a", "array"], "index": 1, "values": [1, "two"]]) {
            try $0.array("a").insert([.int(1), .string("two")], at: 1)
        }
        try await twins.edit(["kind": "arrayInsertDoc", "path": ["a", "array"], "index": 1, "guid": "page-2", "opts": [:] as [String: Any]]) {
            try $0.array("a").insertSubdocument(SubDocumentReference(guid: "page-2"), at: 1)
        }
        try await twins.expectAlike("creating sub-documents")
        #expect(twins.swift.subdocuments.count == 3)
        #expect(try twins.swift.map("m").subdocument("notes") == SubDocumentReference(guid: "notes-1", autoLoad: true, meta: .object(["title": .string("Notes")])))
        #expect(try twins.swift.array("a").subdocument(at: 1)?.guid == "page-2")
        #expect(try twins.swift.array("a").subdocument(at: 2) == nil)

        // A third replica reading Yjs's bytes sees the same references.
        let reader = SharedDocument(clientID: 99)
        try reader.applyUpdate(try await twins.yjsUpdate())
        #expect(try reader.map("m").subdocument("notes")?.autoLoad == true)
        #expect(try reader.array("a").subdocument(at: 0)?.gc == false)
        #expect(try reader.encodeStateAsUpdate() == (try await twins.yjsUpdate()))
    }

    @Test func nestedInTypesAndReplaced() async throws {
        let yjs = try PeerProcess(.yjs)
        let twins = try await Twins(yjs, id: 1, client: 12)
        try await twins.edit(["kind": "arrayInsertType", "path": ["a", "array"], "index": 0, "type": "map"]) { _ = try $0.array("a").insertMap(at: 0) }
        try await twins.edit(["kind": "mapSetType", "path": ["m", "map"], "key": "folder", "type": "map"]) { _ = try $0.map("m").setMap("folder") }
        try await twins.edit(["kind": "mapSetType", "path": ["m", "map", "folder"], "key": "pages", "type": "array"]) { _ = try $0.map("m").map("folder")?.setArray("pages") }
        try await twins.edit(["kind": "arrayInsertDoc", "path": ["m", "map", "folder", "pages"], "index": 0, "guid": "deep", "opts": ["meta": "x"]]) {
            try $0.map("m").map("folder")?.array("pages")?.insertSubdocument(SubDocumentReference(guid: "deep", meta: .string("x")), at: 0)
        }
        try await twins.expectAlike("a sub-document two types deep")
        #expect(twins.swift.subdocumentGUIDs == ["deep"])
        // Replacing a map entry deletes the sub-document it held.
        try await twins.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "k", "guid": "first", "opts": [:] as [String: Any]]) {
            try $0.map("m").setSubdocument("k", SubDocumentReference(guid: "first"))
        }
        try await twins.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "k", "guid": "second", "opts": [:] as [String: Any]]) {
            try $0.map("m").setSubdocument("k", SubDocumentReference(guid: "second"))
        }
        try await twins.expectAlike("replacing a sub-document in a map")
        #expect(twins.swift.subdocumentGUIDs == ["deep", "second"])
        // Deleting the folder deletes the sub-document inside it.
        try await twins.edit(["kind": "mapDelete", "path": ["m", "map"], "key": "folder"]) { try $0.map("m").delete("folder") }
        try await twins.expectAlike("deleting the type that holds a sub-document")
        #expect(twins.swift.subdocumentGUIDs == ["second"])
    }

    /// With gc on, a deleted sub-document's item keeps no content (ref 1), as Yjs's does; with
    /// gc off it stays a ref-9 item that every replica can read back.
    @Test(arguments: [true, false])
    func deleted(gc: Bool) async throws {
        let yjs = try PeerProcess(.yjs)
        let twins = try await Twins(yjs, id: 1, client: 13, gc: gc)
        try await twins.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "notes", "guid": "notes-1", "opts": ["autoLoad": true]]) {
            try $0.map("m").setSubdocument("notes", SubDocumentReference(guid: "notes-1", autoLoad: true))
        }
        try await twins.edit(["kind": "arrayInsertDoc", "path": ["a", "array"], "index": 0, "guid": "page-1", "opts": [:] as [String: Any]]) {
            try $0.array("a").insertSubdocument(SubDocumentReference(guid: "page-1"), at: 0)
        }
        try await twins.edit(["kind": "mapDelete", "path": ["m", "map"], "key": "notes"]) { try $0.map("m").delete("notes") }
        try await twins.edit(["kind": "arrayDelete", "path": ["a", "array"], "index": 0, "count": 1]) { try $0.array("a").delete(at: 0) }
        try await twins.expectAlike("deleting both sub-documents (gc \(gc))")
        #expect(twins.swift.subdocuments.isEmpty)
        let update = try twins.swift.encodeStateAsUpdate()
        let docItems = update.indices.filter { update[$0] & 0x1F == 9 && update[$0] & 0xC0 == 0 }
        #expect(gc ? docItems.isEmpty : !docItems.isEmpty, "a deleted sub-document with gc \(gc) is \(gc ? "not " : "")kept")

        // The deleted history reads back on both sides, into a document of either gc.
        for readerGC in [true, false] {
            let reader = try await Twins(yjs, id: readerGC ? 2 : 3, client: 50, gc: readerGC)
            try await reader.apply(update)
            try await reader.expectAlike("reading the deleted history (gc \(gc) into gc \(readerGC))")
        }
    }

    /// Two replicas set a sub-document at the same key concurrently; merged, diffed and
    /// re-encoded as Yjs does it.
    @Test func concurrentMergeAndDiff() async throws {
        let yjs = try PeerProcess(.yjs)
        let left = try await Twins(yjs, id: 1, client: 21)
        let right = try await Twins(yjs, id: 2, client: 22)
        try await left.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "k", "guid": "left", "opts": ["gc": false]]) {
            try $0.map("m").setSubdocument("k", SubDocumentReference(guid: "left", gc: false))
        }
        try await right.edit(["kind": "mapSetDoc", "path": ["m", "map"], "key": "k", "guid": "right", "opts": ["autoLoad": true]]) {
            try $0.map("m").setSubdocument("k", SubDocumentReference(guid: "right", autoLoad: true))
        }
        try await right.edit(["kind": "arrayPush", "path": ["a", "array"], "values": ["v"]]) { try $0.array("a").push([.string("v")]) }
        let leftUpdate = try await left.yjsUpdate()
        let rightUpdate = try await right.yjsUpdate()
        let stateVector = try await yjs.bytes(try yjs.send(["op": "sv", "id": 1]), "sv")
        try await left.apply(rightUpdate)
        try await right.apply(leftUpdate)
        try await left.expectAlike("merging concurrent sub-documents (left)")
        try await right.expectAlike("merging concurrent sub-documents (right)")
        #expect(left.swift.subdocuments == right.swift.subdocuments)
        #expect(left.swift.subdocuments.count == 1)

        let merged = try await yjs.bytes(try yjs.send(["op": "merge", "updates": [base64(leftUpdate), base64(rightUpdate)]]), "update")
        #expect(try Updates.merge([leftUpdate, rightUpdate]) == merged)
        let diff = try await yjs.bytes(try yjs.send(["op": "diff", "update": base64(merged), "sv": base64(stateVector)]), "update")
        #expect(try Updates.diff(merged, stateVector: stateVector) == diff)
    }

    /// Options as a writer other than Yjs may send them: Yjs keeps `gc`, `autoLoad` and `meta`
    /// by JavaScript's rules and drops the rest; Swift must re-encode the same bytes.
    @Test(arguments: [
        YValue.object(["foo": .int(1), "gc": .int(0), "autoLoad": .string("yes"), "shouldLoad": .bool(true), "meta": .null]),
        .object(["meta": .array([.int(1), .undefined]), "autoLoad": .int(0), "gc": .undefined]),
        .object(["gc": .null, "autoLoad": .double(.nan)]),
        .object(["gc": .string(""), "autoLoad": .object([:]), "meta": .bool(false)]),
        .int(5),
        .string("gc"),
        .array([.bool(false)]),
        .object(["guid": .string("renamed"), "autoLoad": .bool(true)]),
    ])
    func foreignOptionsAreNormalisedAsYjsDoes(options: YValue) async throws {
        var writer = ByteWriter()
        // One client (7), one struct at clock 0: a ref-9 item under the root map "m", key "k".
        writer.writeVarUint(1)
        writer.writeVarUint(1)
        writer.writeVarUint(7)
        writer.writeVarUint(0)
        writer.write(9 | 0x20)
        writer.writeVarUint(1)
        writer.writeString("m")
        writer.writeString("k")
        writer.writeString("guid-7")
        writer.writeAny(options)
        writer.writeVarUint(0)
        let update = writer.bytes

        let yjs = try PeerProcess(.yjs)
        let twins = try await Twins(yjs, id: 1, client: 30)
        try await twins.apply(update)
        try await twins.expectAlike("options \(options)")
        #expect(twins.swift.subdocuments.count == 1)
    }
}
