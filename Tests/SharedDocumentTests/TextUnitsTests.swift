import Foundation
import Testing
@testable import SharedDocument

/// Text content is held in one of three forms (`TextUnits`: up to 14 ASCII characters inside the
/// item, longer ASCII as bytes, anything else as UTF-16). What a document shows and encodes must
/// not depend on the form: splits and merges cross every boundary between them here, and the
/// bytes are checked against Yjs making the same edits.
@Suite(.tags(.integration))
struct TextUnitsTests {
    static let samples: [String] = [
        "", "a", "abcdefghijklmn", "abcdefghijklmno", String(repeating: "xyz", count: 20),
        "é", "naïve café", "😀 ok", "a😀b", String(repeating: "ab", count: 10) + "é",
    ]

    @Test(arguments: samples)
    func splitThenAppendGivesTheUnitsBack(_ sample: String) {
        let units = Array(sample.utf16)
        let whole = TextUnits(sample)
        #expect(whole.count == units.count)
        #expect(whole.utf16 == units)
        #expect(TextUnits(units).utf16 == units, "built from UTF-16 units or from the string: the same units")
        for offset in 0...units.count {
            var left = TextUnits(sample)
            let right = left.split(at: offset)
            var expectedLeft = Array(units[..<offset])
            var expectedRight = Array(units[offset...])
            // Yjs's splice: a surrogate pair cut in two becomes U+FFFD on both sides.
            if let last = expectedLeft.last, (0xD800...0xDBFF).contains(last), !expectedRight.isEmpty {
                expectedLeft[expectedLeft.count - 1] = 0xFFFD
                expectedRight[0] = 0xFFFD
            }
            #expect(left.utf16 == expectedLeft, "left of \(offset)")
            #expect(right.utf16 == expectedRight, "right of \(offset)")
            left.append(right)
            #expect(left.utf16 == expectedLeft + expectedRight, "appended back at \(offset)")
            #expect(left.count == units.count)
        }
    }

    @Test func everyFormWritesTheSameBytes() {
        for sample in Self.samples {
            var fromString = ByteWriter()
            TextUnits(sample).write(from: 0, to: &fromString)
            var fromUnits = ByteWriter()
            fromUnits.writeUTF16String(Array(sample.utf16))
            #expect(fromString.bytes == fromUnits.bytes, "\(sample)")
        }
    }

    @Test func editsAcrossTheFormsEncodeAsYjsDoes() async throws {
        // Each edit is its own transaction, as typing is: runs merge, later edits split them.
        let edits: [(index: Int, delete: Int, insert: String)] = [
            (0, 0, "Hello"), (5, 0, ","), (6, 0, " world"), (12, 0, "!"),        // short ASCII runs merged past 14
            (12, 0, String(repeating: "long ascii text ", count: 3)),           // a long ASCII item
            (3, 0, "é"), (4, 0, "ü"),                                            // UTF-16 inside a merged run
            (20, 0, "😀"), (21, 0, "x"),                                          // inside a surrogate pair
            (30, 4, ""), (2, 3, ""),                                              // deletes splitting items
            (10, 0, "abcdefghijklmnopqrstuvwxyz"), (36, 0, "é"), (37, 0, "tail"),  // ASCII then UTF-16 merged
        ]
        let ours = SharedDocument(clientID: 5)
        let text = try ours.text("t")
        let yjs = try PeerProcess(.yjs)
        try await yjs.send(["op": "new", "id": 1, "client": 5, "roots": testRootsForPeers])
        for edit in edits {
            if edit.delete > 0 {
                try text.delete(at: edit.index, count: edit.delete)
                try await yjs.send(["op": "edit", "id": 1, "edits": [["path": ["t", "text"], "kind": "textDelete", "index": edit.index, "count": edit.delete]]])
            }
            if !edit.insert.isEmpty {
                try text.insert(edit.insert, at: edit.index)
                try await yjs.send(["op": "edit", "id": 1, "edits": [["path": ["t", "text"], "kind": "textInsert", "index": edit.index, "text": edit.insert]]])
            }
        }
        let update = try ours.encodeStateAsUpdate()
        let theirs = try await yjs.bytes(try yjs.send(["op": "encode", "id": 1]), "update")
        #expect(update == theirs, "Yjs encodes the same edits differently")

        let loaded = SharedDocument(clientID: 6)
        try loaded.applyUpdate(update)
        #expect(try loaded.text("t").toString() == text.toString())
        #expect(try loaded.encodeStateAsUpdate() == update)
    }
}
