import Foundation
import Testing
@testable import SharedDocument

/// An attacker's look at text held as `TextUnits`: the forms mixed by edits, merges
/// and splits; surrogate pairs cut by concurrent structs, deletes and state vectors at every
/// offset; formatting around such text; very long items; and hostile updates aimed at the
/// string reader. Every document is compared byte for byte with real Yjs making the same edits.
@Suite(.tags(.integration), .serialized)
struct TextFormsAttackTests {
    /// A Yjs replica driven by commands.
    struct YjsReplica {
        let peer: PeerProcess
        let id: Int

        init(_ peer: PeerProcess, id: Int, client: Int) async throws {
            self.peer = peer
            self.id = id
            try await peer.send(["op": "new", "id": id, "client": client, "roots": testRootsForPeers])
        }

        func edit(_ fields: [String: Any]) async throws {
            var command = fields
            if command["path"] == nil { command["path"] = ["t", "text"] }
            try await peer.send(["op": "edit", "id": id, "edits": [command]])
        }

        func encode(stateVector: [UInt8]? = nil) async throws -> [UInt8] {
            var command: [String: Any] = ["op": "encode", "id": id]
            if let stateVector { command["sv"] = base64(stateVector) }
            return try await peer.bytes(try peer.send(command), "update")
        }

        func stateVector() async throws -> [UInt8] { try await peer.bytes(try peer.send(["op": "sv", "id": id]), "sv") }
        func apply(_ update: [UInt8]) async throws { try await peer.send(["op": "apply", "id": id, "update": base64(update)]) }
        func json() async throws -> String { try await peer.send(["op": "json", "id": id])["json"] as? String ?? "" }
        func delta() async throws -> String { try await peer.send(["op": "delta", "id": id, "name": "t"])["delta"] as? String ?? "" }
    }

    func document(_ client: Int) throws -> SharedDocument {
        let document = SharedDocument(clientID: client)
        for (root, kind) in testRoots { _ = try document.root(root, kind: kind) }
        return document
    }

    func expectSame(_ ours: SharedDocument, _ theirs: YjsReplica, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let ourUpdate = try ours.encodeStateAsUpdate()
        let theirUpdate = try await theirs.encode()
        #expect(ourUpdate == theirUpdate, "update differs from Yjs's after \(context)", sourceLocation: sourceLocation)
        let ourJSON = try ours.toJSON().jsonText
        let theirJSON = try await theirs.json()
        #expect(ourJSON == theirJSON, "toJSON differs from Yjs's after \(context)", sourceLocation: sourceLocation)
    }

    /// Text of every form with surrogate pairs at odd and even offsets.
    static let sample = "x😀𝄞é" + String(repeating: "ascii ", count: 3) + "😀\u{0}ab"

    /// A struct of client 2 at clock 0 holding "X", placed by `origin` and/or `rightOrigin`
    /// (clocks of client 1): the way a concurrent insert lands inside an item.
    func insertUpdate(origin: Int?, rightOrigin: Int?) -> [UInt8] {
        var info: UInt8 = 4
        var body: [UInt8] = []
        if let origin { info |= 0x80; body += [1, UInt8(origin)] }
        if let rightOrigin { info |= 0x40; body += [1, UInt8(rightOrigin)] }
        return [1, 1, 2, 0, info] + body + [1, 0x58, 0]
    }

    @Test("A concurrent insert, a delete or a state vector at every offset of mixed text cuts it as Yjs does")
    func everyOffsetOfMixedText() async throws {
        let peer = try PeerProcess(.yjs)
        let units = Self.sample.utf16.count
        let author = try document(1)
        try author.text("t").insert(Self.sample, at: 0)
        let base = try author.encodeStateAsUpdate()
        var nextID = 100
        for clock in 0..<units {
            var attacks: [(String, [UInt8])] = [
                ("origin at clock \(clock)", insertUpdate(origin: clock, rightOrigin: nil)),
                ("right origin at clock \(clock)", insertUpdate(origin: nil, rightOrigin: clock)),
                ("delete of clock \(clock)", [0, 1, 1, 1, UInt8(clock), 1]),
            ]
            if clock + 1 < units { attacks.append(("origin \(clock), right origin \(clock + 1)", insertUpdate(origin: clock, rightOrigin: clock + 1))) }
            for (name, attack) in attacks {
                let ours = try document(9)
                try ours.applyUpdate(base)
                let theirs = try await YjsReplica(peer, id: nextID, client: 9)
                nextID += 1
                try await theirs.apply(base)
                try ours.applyUpdate(attack)
                try await theirs.apply(attack)
                try await expectSame(ours, theirs, name)
                // Typing next to the cut, then reading from every state vector.
                let at = min(clock + 1, try ours.text("t").length)
                try ours.text("t").insert("é", at: at)
                try await theirs.edit(["kind": "textInsert", "index": at, "text": "é"])
                try await expectSame(ours, theirs, "\(name), then typing")
                let full = try ours.encodeStateAsUpdate()
                for cut in 0...units {
                    let vector: [UInt8] = [1, 1, UInt8(cut)]
                    let ourDiff = try ours.encodeStateAsUpdate(stateVector: vector)
                    let theirDiff = try await theirs.encode(stateVector: vector)
                    #expect(ourDiff == theirDiff, "\(name): state vector cut at \(cut)")
                    let ourDocumentFree = try Updates.diff(full, stateVector: vector)
                    let theirDocumentFree = try await peer.bytes(try peer.send(["op": "diff", "update": base64(full), "sv": base64(vector)]), "update")
                    #expect(ourDocumentFree == theirDocumentFree, "\(name): diffUpdate cut at \(cut)")
                }
            }
        }
    }

    @Test("Formatting around non-ASCII, astral and long text, then edits inside it, encode as Yjs")
    func formattingAroundMixedText() async throws {
        let peer = try PeerProcess(.yjs)
        let author = try await YjsReplica(peer, id: 1, client: 3)
        let theirs = try await YjsReplica(peer, id: 2, client: 4)
        let ours = try document(4)
        let long = String(repeating: "plain ascii ", count: 5)
        let script: [[String: Any]] = [
            ["kind": "textInsert", "index": 0, "text": "ab😀cd" + long + "é𝄞\u{0}"],
            ["kind": "textFormat", "index": 2, "count": 1, "value": ["bold": true]],          // half a pair
            ["kind": "textFormat", "index": 5, "count": 20, "value": ["italic": true]],
            ["kind": "textInsertWithAttributes", "index": 9, "text": "😀long inserted é", "value": ["color": "red"]],
            ["kind": "textFormat", "index": 0, "count": 40, "value": ["bold": NSNull()]],
            ["kind": "textInsertEmbed", "index": 3, "value": ["image": "x.png"]],
            ["kind": "textDelete", "index": 60, "count": 3],
        ]
        for (step, edit) in script.enumerated() {
            let vector = ours.encodeStateVector()
            try await author.edit(edit)
            let update = try await author.encode(stateVector: vector)
            try ours.applyUpdate(update)
            try await theirs.apply(update)
            try await expectSame(ours, theirs, "formatting step \(step)")
        }
        // Swift's own edits inside formatted runs, cutting pairs too; its twin makes the same.
        let length = try ours.text("t").length
        for (index, insert, delete) in [(3, "é", 0), (length / 2, "", 2), (1, "😀😀", 1), (10, long, 0), (0, "", 5)] {
            if delete > 0 {
                try ours.text("t").delete(at: index, count: delete)
                try await theirs.edit(["kind": "textDelete", "index": index, "count": delete])
            }
            if !insert.isEmpty {
                try ours.text("t").insert(insert, at: index)
                try await theirs.edit(["kind": "textInsert", "index": index, "text": insert])
            }
            try await expectSame(ours, theirs, "Swift's edit at \(index)")
        }
        // Yjs reads Swift's bytes as the same rich text.
        let copy = try await YjsReplica(peer, id: 3, client: 5)
        try await copy.apply(try ours.encodeStateAsUpdate())
        let original = try await theirs.delta()
        #expect(try await copy.delta() == original)
    }

    @Test("Items of a megabyte in each form: typing, cutting, deleting and collecting as Yjs", arguments: ["a", "é", "😀"])
    func megabyteItems(_ unit: String) async throws {
        let peer = try PeerProcess(.yjs)
        let theirs = try await YjsReplica(peer, id: 1, client: 6)
        let ours = try document(6)
        let big = String(repeating: unit, count: 1_000_000 / unit.utf16.count)
        let length = big.utf16.count
        var edits: [(index: Int, delete: Int, insert: String)] = [(0, 0, big)]
        for index in [length, length + 1, length + 2] { edits.append((index, 0, "z")) } // typing merges onto it
        edits += [(length / 2 + 1, 0, "cut"), (7, length / 2, ""), (3, 1, "é"), (1, 0, "ASCII between")]
        for edit in edits {
            if edit.delete > 0 {
                try ours.text("t").delete(at: edit.index, count: edit.delete)
                try await theirs.edit(["kind": "textDelete", "index": edit.index, "count": edit.delete])
            }
            if !edit.insert.isEmpty {
                try ours.text("t").insert(edit.insert, at: edit.index)
                try await theirs.edit(["kind": "textInsert", "index": edit.index, "text": edit.insert])
            }
            // Updates each step; toJSON (slow to compare at this size in a debug build) once, below.
            let theirUpdate = try await theirs.encode()
            #expect(try ours.encodeStateAsUpdate() == theirUpdate, "edit at \(edit.index) of a \(unit) megabyte")
        }
        try await expectSame(ours, theirs, "the edits of a \(unit) megabyte")
        let loaded = try document(7)
        try loaded.applyUpdate(try ours.encodeStateAsUpdate())
        #expect(try loaded.text("t").toString() == (try ours.text("t").toString()))
        #expect(try loaded.encodeStateAsUpdate() == (try ours.encodeStateAsUpdate()))
    }

    @Test("Deleted text of every form is collected, and kept without GC, as Yjs does")
    func deletedTextWithAndWithoutGC() async throws {
        let peer = try PeerProcess(.yjs)
        let author = try document(1)
        let text = try author.text("t")
        for piece in ["short", "é😀", String(repeating: "long ascii ", count: 4), "\u{0}"] { try text.insert(piece, at: text.length) }
        try text.delete(at: 2, count: 30)
        try text.insert("back", at: 2) // typed where deleted text was
        let theirs = try await YjsReplica(peer, id: 1, client: 1)
        for piece in ["short", "é😀", String(repeating: "long ascii ", count: 4), "\u{0}"] {
            let end = try await textLength(theirs)
            try await theirs.edit(["kind": "textInsert", "index": end, "text": piece])
        }
        try await theirs.edit(["kind": "textDelete", "index": 2, "count": 30])
        try await theirs.edit(["kind": "textInsert", "index": 2, "text": "back"])
        try await expectSame(author, theirs, "deleting across forms")

        // Without GC the deleted characters stay and are written (Yjs would too: gc false).
        let kept = SharedDocument(clientID: 1, gc: false)
        _ = try kept.root("t", kind: .text)
        let keptText = try kept.text("t")
        try keptText.insert("é😀" + String(repeating: "long ascii ", count: 4), at: 0)
        try keptText.delete(at: 1, count: 20)
        let reread = SharedDocument(clientID: 2, gc: false)
        try reread.applyUpdate(try kept.encodeStateAsUpdate())
        #expect(try reread.encodeStateAsUpdate() == (try kept.encodeStateAsUpdate()))
        #expect(try reread.text("t").toString() == keptText.toString())
    }

    func textLength(_ replica: YjsReplica) async throws -> Int {
        let json = try await replica.json()
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return ((object?["t"] as? String) ?? "").utf16.count
    }

    // MARK: Hostile updates aimed at the string reader

    /// A document holding text of every form, and its encoding.
    func populated() throws -> (SharedDocument, [UInt8]) {
        let document = SharedDocument(clientID: 5)
        try document.text("t").insert("short" + String(repeating: "long ascii ", count: 3) + "é😀", at: 0)
        return (document, try document.encodeStateAsUpdate())
    }

    /// `bytes` are refused with an error of `kind` (any `invalidStructure` when nil) and leave
    /// the document as it was; the document-free functions refuse what cannot be decoded.
    func expectRefused(_ bytes: [UInt8], _ kind: UpdateDecodingError.Kind?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (document, before) = try populated()
        do {
            try document.applyUpdate(bytes)
            Issue.record("no error for \(bytes.prefix(40))", sourceLocation: sourceLocation)
        } catch {
            if let kind {
                #expect(error.kind == kind, sourceLocation: sourceLocation)
            } else if case .invalidStructure = error.kind {
            } else {
                Issue.record("\(error) is no invalidStructure", sourceLocation: sourceLocation)
            }
        }
        #expect(try document.encodeStateAsUpdate() == before, "a refused update changed the document", sourceLocation: sourceLocation)
        guard kind != nil else { return }
        #expect(throws: UpdateDecodingError.self, sourceLocation: sourceLocation) { try Updates.merge([before, bytes]) }
        #expect(throws: UpdateDecodingError.self, sourceLocation: sourceLocation) { try Updates.diff(bytes, stateVector: [0]) }
    }

    /// The clock of the last character of `populated()`'s text (one item of 41 units).
    static let lastClock: UInt8 = 40

    /// A string struct of client 9 after the last character of client 5's text,
    /// whose varstring is `length` then `bytes`.
    func stringUpdate(length: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        [1, 1, 9, 0, 0x84, 5, Self.lastClock] + length + bytes + [0]
    }

    func varuint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            out.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return out
    }

    @Test func stringClaimingAHugeLengthIsRefusedBeforeAllocating() throws {
        for claimed: UInt64 in [100, 1 << 20, 1 << 40, (1 << 53) - 1] {
            try expectRefused(stringUpdate(length: varuint(claimed), Array("abc".utf8)), .invalidLength)
        }
        try expectRefused(stringUpdate(length: varuint(1 << 53), Array("abc".utf8)), .overflow)
        try expectRefused(stringUpdate(length: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], []), .overflow)
    }

    @Test(arguments: [
        [0xC0, 0xAF],                         // overlong '/'
        [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], // a surrogate pair spelled as two 3-byte sequences (CESU-8)
        [0xED, 0xB8, 0x80],                   // a lone low surrogate
        [0xF0, 0x9F, 0x98],                   // an astral character cut short
        [0x80],                               // a lone continuation byte
        [0xF8, 0x88, 0x80, 0x80, 0x80],       // a 5-byte form
        [0xF4, 0x90, 0x80, 0x80],             // past U+10FFFF
        [0xFF],
    ] as [[UInt8]])
    func invalidUTF8InAStringIsRefused(_ bad: [UInt8]) throws {
        // Alone, after a short ASCII run, after a run longer than an inline item, and mid-text.
        for prefix in ["", "abc", String(repeating: "ascii", count: 5)] {
            let bytes = Array(prefix.utf8) + bad + Array("tail".utf8)
            try expectRefused(stringUpdate(length: varuint(UInt64(bytes.count)), bytes), .invalidUTF8)
        }
    }

    /// A string's UTF-8 byte length is not its item's length: the next struct's clock follows
    /// the UTF-16 count. A struct claiming the byte count as its length must not fit.
    @Test("Non-ASCII text advances clocks by UTF-16 units, not bytes", arguments: ["é", "😀", "日本", "a😀é\u{0}"])
    func clocksFollowUTF16Units(_ text: String) async throws {
        let peer = try PeerProcess(.yjs)
        let bytes = Array(text.utf8)
        // Two structs of client 9: the text at the end of client 5's, then "Z" with origin the
        // last unit of the text (its clock is the text's UTF-16 length, minus one).
        let units = text.utf16.count
        let update: [UInt8] = [1, 2, 9, 0, 0x84, 5, Self.lastClock] + varuint(UInt64(bytes.count)) + bytes + [0x84, 9, UInt8(units - 1), 1, 0x5A, 0]
        let (ours, base) = try populated()
        // Not client 5: Yjs takes a new client id (and says so on stdout) when it meets its own.
        let theirs = try await YjsReplica(peer, id: 1, client: 6)
        try await theirs.apply(base)
        try ours.applyUpdate(update)
        try await theirs.apply(update)
        let ourVector = try Updates.decodeStateVector(ours.encodeStateVector())
        #expect(ourVector[9] == units + 1)
        let theirUpdate = try await theirs.encode()
        #expect(try ours.encodeStateAsUpdate() == theirUpdate)
        #expect(try ours.text("t").toString().hasSuffix(text + "Z"))
        // A second struct whose origin names the byte count instead: an origin on its own
        // client that is not before it, refused whole.
        if bytes.count > units {
            let wrong: [UInt8] = [1, 2, 9, 0, 0x84, 5, Self.lastClock] + varuint(UInt64(bytes.count)) + bytes + [0x84, 9, UInt8(bytes.count), 1, 0x5A, 0]
            try expectRefused(wrong, nil)
        }
    }
}
