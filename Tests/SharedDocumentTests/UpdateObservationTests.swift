import SharedDocument
import Testing

/// `observeUpdates` (Yjs's `doc.on('update')`): each transaction's update, applied in order to a
/// replica that started equal, gives the same document; nothing is emitted for no change.
@Suite(.tags(.unit)) struct UpdateObservationTests {
    @Test func everyTransactionsUpdateRebuildsTheDocumentOnAReplica() throws {
        let source = SharedDocument(clientID: 1)
        let replica = SharedDocument(clientID: 2)
        var updates: [[UInt8]] = []
        var origins: [String?] = []
        source.observeUpdates { update, transaction in
            updates.append(update)
            origins.append(transaction.origin as? String)
        }
        try source.transact(origin: "edit") { _ in
            try source.map("m").set("a", .string("1"))
            let nested = try source.map("m").setMap("nested")
            try nested.set("deep", .int(2))
        }
        try source.array("list").push([.int(1), .int(2), .int(3)])
        try source.array("list").delete(at: 1)
        try source.text("t").insert("hello world", at: 0)
        try source.text("t").delete(at: 5, count: 6)
        try source.map("m").delete("a")
        // A change that changes nothing emits nothing.
        source.transact { _ in }
        // An update from elsewhere is emitted too (its transaction is not local).
        let other = SharedDocument(clientID: 3)
        try other.map("m").set("from-other", .bool(true))
        try source.applyUpdate(other.encodeStateAsUpdate(), origin: "remote")

        #expect(updates.count == 7)
        #expect(origins.first == "edit" && origins.last == "remote")
        for update in updates { try replica.applyUpdate(update) }
        #expect(try replica.map("m").toJSON() == source.map("m").toJSON())
        #expect(try replica.array("list").toJSON() == .array([.int(1), .int(3)]))
        #expect(try replica.text("t").toString() == "hello")
        #expect(try replica.encodeStateAsUpdate() == source.encodeStateAsUpdate())
    }

    @Test func aDeletionOnlyUpdateCarriesTheDeleteAndIsCoveredOnlyByADeleteSetThatHasIt() throws {
        let source = SharedDocument(clientID: 1)
        try source.map("m").set("k", .string("v"))
        let server = SharedDocument(clientID: 9)
        try server.applyUpdate(source.encodeStateAsUpdate())
        var deletion: [UInt8] = []
        source.observeUpdates { update, _ in deletion = update }
        try source.map("m").delete("k")
        // Under the server's state vector, but its delete set lacks the deletion: not covered.
        #expect(try !Updates.isCovered(deletion, stateVector: server.stateVector, deletions: server.encodeStateAsUpdate()))
        try server.applyUpdate(deletion)
        #expect(try server.map("m").get("k") == nil)
        #expect(try Updates.isCovered(deletion, stateVector: server.stateVector, deletions: server.encodeStateAsUpdate()))
        // Structs past the state vector are not covered.
        var insertion: [UInt8] = []
        source.observeUpdates { update, _ in insertion = update }
        try source.map("m").set("new", .int(1))
        #expect(try !Updates.isCovered(insertion, stateVector: server.stateVector, deletions: server.encodeStateAsUpdate()))
    }
}
