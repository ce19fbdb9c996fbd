import SharedDocument
import Testing

/// `wouldChange(_:)`: what a sync server stores and broadcasts, and refuses from a read-only
/// client (docs/sync.md §2.1, §2.3). It must agree with what applying the update does.
@Suite(.tags(.unit)) struct WouldChangeTests {
    func update(_ document: SharedDocument, _ body: (SharedDocument) throws -> Void) throws -> [UInt8] {
        let before = document.encodeStateVector()
        try body(document)
        return try document.encodeStateAsUpdate(stateVector: before)
    }

    @Test func newStructsAndNewDeletionsChangeRepeatsDoNot() throws {
        let author = SharedDocument()
        let insert = try update(author) { try $0.array("a").push([.int(1), .int(2), .int(3)]) }
        let delete = try update(author) { try $0.array("a").delete(at: 1) }

        let server = SharedDocument()
        #expect(try server.wouldChange(insert))
        try server.applyUpdate(insert)
        #expect(try !server.wouldChange(insert), "the same structs again")
        #expect(try server.wouldChange(delete), "a deletion of an item not yet deleted")
        try server.applyUpdate(delete)
        #expect(try !server.wouldChange(delete), "the same deletion again")
        // What every Yjs client sends on connecting: the whole delete set, nothing new.
        #expect(try !server.wouldChange(author.encodeStateAsUpdate(stateVector: server.encodeStateVector())))
        #expect(try !server.wouldChange([0, 0]), "an empty update")
        #expect(try server.encodeStateAsUpdate() == author.encodeStateAsUpdate())
    }

    @Test func structsAndDeletionsNotYetHereArePendingChanges() throws {
        let author = SharedDocument()
        let first = try update(author) { try $0.map("m").set("a", .int(1)) }
        let second = try update(author) { try $0.map("m").set("a", .int(2)) }  // deletes the first value too
        let server = SharedDocument()
        // The second update depends on the first: it is kept pending, which is a change.
        #expect(try server.wouldChange(second))
        try server.applyUpdate(second)
        #expect(try server.wouldChange(first))
        try server.applyUpdate(first)
        #expect(try server.map("m").get("a") == .int(2))
        #expect(try !server.wouldChange(first))
        #expect(try !server.wouldChange(second))
    }

    @Test func malformedUpdatesThrow() {
        #expect(throws: UpdateDecodingError.self) { try SharedDocument().wouldChange([3, 1, 200]) }
    }
}
