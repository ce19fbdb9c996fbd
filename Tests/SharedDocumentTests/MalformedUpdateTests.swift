import Testing
@testable import SharedDocument

/// Hand-written bad updates: each is a typed error, and the document is left unchanged.
@Suite(.tags(.unit))
struct MalformedUpdateTests {
    /// A document with some content, and its full encoding to compare against afterwards.
    func populated() throws -> (SharedDocument, [UInt8]) {
        let document = SharedDocument(clientID: 5)
        try document.map("m").set("a", .string("x"))
        try document.array("a").push([.int(1), .int(2)])
        try document.text("t").insert("hello", at: 0)
        try document.text("t").delete(at: 1, count: 2)
        return (document, try document.encodeStateAsUpdate())
    }

    func expectError(_ bytes: [UInt8], _ kind: UpdateDecodingError.Kind, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (document, before) = try populated()
        do {
            try document.applyUpdate(bytes)
            Issue.record("no error for \(bytes)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, sourceLocation: sourceLocation)
        }
        #expect(try document.encodeStateAsUpdate() == before, "document changed", sourceLocation: sourceLocation)
    }

    /// One struct of client 9 at clock 0: `info`, then `body`.
    func update(info: UInt8, _ body: [UInt8], deleteSet: [UInt8] = [0]) -> [UInt8] {
        [1, 1, 9, 0, info] + body + deleteSet
    }

    @Test func emptyInputIsTruncated() throws { try expectError([], .truncated) }
    @Test func missingDeleteSetIsTruncated() throws { try expectError([0], .truncated) }
    @Test func varuintOverflow() throws { try expectError([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0], .overflow) }
    @Test func hugeClientCountIsRefusedBeforeAllocating() throws { try expectError([0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0, 0], .invalidLength) }
    @Test func hugeStructCount() throws { try expectError([1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 9, 0, 0], .invalidLength) }

    @Test func stringLongerThanInput() throws {
        // A string item at the root "m" whose length says 200 bytes.
        try expectError(update(info: 4, [1, 1, 0x6D, 200, 0x61]), .invalidLength)
    }

    @Test func invalidUTF8() throws { try expectError(update(info: 4, [1, 1, 0x6D, 2, 0xC3, 0x28]), .invalidUTF8) }

    @Test(arguments: [11, 12, 20, 31])
    func unknownContentRef(ref: Int) throws {
        try expectError(update(info: UInt8(ref), [1, 1, 0x6D, 0]), .unknownContentRef(ref))
    }

    /// Yjs throws on a sub-document whose options are null or undefined (`opts.shouldLoad`),
    /// and would write a `guid` option that is not a string (here the number 1) as a string.
    @Test(arguments: [[126], [127], [118, 1, 4, 0x67, 0x75, 0x69, 0x64, 125, 1]] as [[UInt8]])
    func subDocumentWithOptionsYjsCannotRead(options: [UInt8]) throws {
        try expectError(update(info: 9, [1, 1, 0x6D, 1, 0x67] + options),
                        .invalidStructure("sub-document options Yjs cannot read (null, undefined, or a guid that is not a string)"))
    }

    @Test func subDocumentWithTruncatedOptions() throws {
        try expectError(update(info: 9, [1, 1, 0x6D, 1, 0x67, 118, 1, 1, 0x61], deleteSet: []), .truncated)
    }

    @Test func unknownTypeRef() throws { try expectError(update(info: 7, [1, 1, 0x6D, 7]), .unknownTypeRef(7)) }

    @Test func unknownAnyTag() throws {
        try expectError(update(info: 8, [1, 1, 0x6D, 1, 50]), .invalidStructure("unknown Any tag 50"))
    }

    @Test func anyNestedTooDeep() throws {
        let nested = [UInt8](repeating: 117, count: 0).reduce(into: [UInt8]()) { _, _ in }
        var body: [UInt8] = [1, 1, 0x6D, 1]
        for _ in 0..<600 { body += [117, 1] }
        body += [126]
        #expect(nested.isEmpty)
        try expectError(update(info: 8, body), .nestingTooDeep)
    }

    @Test func zeroLengthStruct() throws { try expectError(update(info: 0, [0]), .invalidStructure("struct of length 0")) }

    @Test func clockPast53Bits() throws {
        // GC of client 9 from clock 2^52 with length 2^52.
        let big: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x08]
        try expectError([1, 1, 9] + big + [0] + big + [0], .overflow)
    }

    @Test func originOnOwnClientNotBefore() throws {
        // Item 9:0 whose origin is 9:3.
        try expectError(update(info: 0x88, [9, 3, 1, 126]), .invalidStructure("struct 9:0 refers to 9:3, not before it"))
    }

    @Test func parentThatIsNotATypeMakesAGCStruct() throws {
        // Two structs of client 9: a string at root "m", then an Any item whose parent is 9:0
        // (Yjs would fail later; we keep the clock range as a GC struct, whatever the order).
        let bytes: [UInt8] = [1, 2, 9, 0, 4, 1, 1, 0x6D, 1, 0x61, 8, 0, 9, 0, 1, 126, 0]
        let (document, _) = try populated()
        try document.applyUpdate(bytes)
        #expect(document.stateVector[9] == 2)
        let copy = SharedDocument(clientID: 6)
        for replica in [document, copy] { _ = try replica.map("m"); _ = try replica.array("a"); _ = try replica.text("t") }
        try copy.applyUpdate(try document.encodeStateAsUpdate())
        #expect(try copy.toJSON() == (try document.toJSON()))
        #expect(copy.stateVector == document.stateVector)
    }

    @Test func parentIDOnOwnClientNotBefore() throws {
        try expectError(update(info: 8, [0, 9, 0, 1, 126]), .invalidStructure("struct 9:0 has parent 9:0, not before it"))
    }

    @Test func everyPrefixOfAValidUpdateIsRefusedOrApplied() throws {
        let source = SharedDocument(clientID: 77)
        try source.map("m").set("k", .object(["x": .array([.int(1), .double(2.5)])]))
        try source.text("t").insert("héllo 😀", at: 0)
        try source.array("a").insertMap(at: 0).set("z", .bool(true))
        let full = try source.encodeStateAsUpdate()
        for length in 0..<full.count {
            let (document, before) = try populated()
            do {
                try document.applyUpdate(Array(full[..<length]))
            } catch {
                #expect(try document.encodeStateAsUpdate() == before, "prefix \(length) changed the document")
            }
        }
    }

    @Test func clockFarInTheFutureWaitsAsPending() throws {
        let (document, before) = try populated()
        let json = try document.toJSON()
        // An Any item of client 9 at clock 2^40, at root "m" key "k".
        let clock: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x20]
        let bytes: [UInt8] = [1, 1, 9] + clock + [0x28, 1, 1, 0x6D, 1, 0x6B, 1, 125, 1, 0]
        try document.applyUpdate(bytes)
        #expect(try document.toJSON() == json)
        #expect(document.stateVector[9] == nil)
        let after = try document.encodeStateAsUpdate()
        #expect(after != before, "the pending struct is part of the encoded state")
        let copy = SharedDocument(clientID: 6)
        _ = try copy.map("m")
        _ = try copy.array("a")
        _ = try copy.text("t")
        try copy.applyUpdate(after)
        #expect(try copy.toJSON() == json)
    }

    @Test func badStateVectorsAndUpdatesForDocumentFreeFunctions() throws {
        #expect(throws: UpdateDecodingError.self) { try Updates.decodeStateVector([5, 1]) }
        #expect(throws: UpdateDecodingError.self) { try Updates.merge([[1, 1], [0, 0]]) }
        #expect(throws: UpdateDecodingError.self) { try Updates.diff([0, 0], stateVector: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }
        #expect(throws: UpdateDecodingError.self) { try Updates.encodeStateVectorFromUpdate([3]) }
        let document = SharedDocument()
        #expect(throws: UpdateDecodingError.self) { try document.encodeStateAsUpdate(stateVector: [2, 1]) }
    }
}
