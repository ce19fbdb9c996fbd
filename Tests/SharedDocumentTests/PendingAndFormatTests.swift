import Testing
@testable import SharedDocument

/// What a document says about content it cannot show yet, and v2 updates recognised and refused.
/// The byte arrays were made by Yjs 13.5 (node-yjs).
@Suite(.tags(.unit))
struct PendingAndFormatTests {
    // Client 1: board.title = "Sprint", cards.push(["a", {x: 1}]), notes.insert(0, "hi") (clocks 0–4).
    static let first: [UInt8] = [1, 3, 1, 0, 40, 1, 5, 98, 111, 97, 114, 100, 5, 116, 105, 116, 108, 101, 1, 119, 6, 83, 112, 114, 105, 110, 116, 8, 1, 5, 99, 97, 114, 100, 115, 2, 119, 1, 97, 118, 1, 1, 120, 125, 1, 4, 1, 5, 110, 111, 116, 101, 115, 2, 104, 105, 0]
    // Then board.done = true (clock 5) and cards.delete(0, 1) (clock 1), against [1, 1, 5].
    static let second: [UInt8] = [1, 1, 1, 5, 40, 1, 5, 98, 111, 97, 114, 100, 4, 100, 111, 110, 101, 1, 120, 1, 1, 1, 1, 1]
    // The same document as `first`, from Y.encodeStateAsUpdateV2.
    static let firstV2: [UInt8] = [0, 0, 1, 1, 0, 0, 5, 40, 0, 8, 0, 4, 26, 22, 98, 111, 97, 114, 100, 116, 105, 116, 108, 101, 99, 97, 114, 100, 115, 110, 111, 116, 101, 115, 104, 105, 69, 2, 2, 1, 1, 0, 2, 1, 2, 1, 3, 0, 119, 6, 83, 112, 114, 105, 110, 116, 119, 1, 97, 118, 1, 1, 120, 125, 1, 0]
    // Y.encodeStateAsUpdateV2(new Y.Doc()): its leading zero also reads as an empty v1 update.
    static let emptyV2: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]

    @Test func aLaterUpdateAloneIsPendingAndSaysWhatItWaitsFor() throws {
        let document = SharedDocument()
        try document.applyUpdate(Self.second)
        let pending = try #require(document.pending)
        #expect(pending.structs == [PendingContent.Waiting(span: .init(client: 1, clocks: 5..<6), count: 1)])
        #expect(pending.missing == [PendingContent.Span(client: 1, clocks: 0..<5)])
        #expect(pending.deletes == [PendingContent.Span(client: 1, clocks: 1..<2)])
        #expect(pending.missing.map(\.description) == ["client 1 clocks 0–4"])

        try document.applyUpdate(Self.first)
        #expect(document.pending == nil)
        document.inferRootKinds()
        #expect(try document.toJSON() == YValue.object([
            "board": .object(["title": .string("Sprint"), "done": .bool(true)]),
            "cards": .array([.object(["x": .int(1)])]),
            "notes": .string("hi"),
        ]))
    }

    @Test func aDeleteOfUnreceivedStructsIsPending() throws {
        // Client 3 deletes clock 0 of client 2, which this document never received.
        let document = SharedDocument()
        try document.applyUpdate([0, 1, 2, 1, 0, 1])
        let pending = try #require(document.pending)
        #expect(pending.structs.isEmpty)
        #expect(pending.missing.isEmpty)
        #expect(pending.deletes == [PendingContent.Span(client: 2, clocks: 0..<1)])
    }

    @Test func aCompleteDocumentHasNothingPending() throws {
        let document = SharedDocument()
        try document.applyUpdate(Self.first)
        #expect(document.pending == nil)
    }

    @Test(arguments: [firstV2, emptyV2])
    func aV2UpdateIsRecognisedAndRefused(_ update: [UInt8]) throws {
        let document = SharedDocument(clientID: 7)
        try document.map("m").set("a", .int(1))
        let before = try document.encodeStateAsUpdate()
        #expect(throws: UpdateDecodingError(.formatV2, at: 0)) { try document.applyUpdate(update) }
        #expect(try document.encodeStateAsUpdate() == before)
        #expect(throws: UpdateDecodingError(.formatV2, at: 0)) { try Updates.merge([Self.first, update]) }
        #expect(throws: UpdateDecodingError(.formatV2, at: 0)) { try Updates.encodeStateVectorFromUpdate(update) }
        #expect(String(describing: UpdateDecodingError(.formatV2, at: 0)).contains("format v2"))
    }

    @Test func v1UpdatesThatStartWithZeroAreStillV1() throws {
        // An empty v1 update and a delete-only one both begin with the byte v2 begins with.
        #expect(throws: Never.self) { try SharedDocument().applyUpdate([0, 0]) }
        #expect(throws: Never.self) { try SharedDocument().applyUpdate([0, 1, 2, 1, 0, 1]) }
    }
}
