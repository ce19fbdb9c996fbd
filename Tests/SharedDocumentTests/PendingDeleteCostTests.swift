import Testing
@testable import SharedDocument

/// A stored delete set naming many unknown clients (kept pending) must not make later updates
/// of the document slow: one such update of 2.4 MB (400,000 clients) made every later update
/// cost 1.56 s, because each update applied the whole pending set again and re-encoded it.
@Suite(.serialized, .tags(.unit))
struct PendingDeleteCostTests {
    /// An update with no structs whose delete set names `count` clients (from `first`), one
    /// range each: as a hostile writer sends it.
    static func poison(clients count: Int, first: Int = 1_000_000) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(0)
        writer.writeVarUint(count)
        for client in first..<(first + count) {
            writer.writeVarUint(client)
            writer.writeVarUint(1)
            writer.writeVarUint(0)
            writer.writeVarUint(1)
        }
        return writer.bytes
    }

    /// `count` updates of one editor typing into `notes`, one character each.
    static func typing(_ count: Int, client: Int = 7) throws -> [[UInt8]] {
        let editor = SharedDocument(clientID: client)
        var updates: [[UInt8]] = []
        _ = editor.observeUpdates { update, _ in updates.append(update) }
        let text = try editor.text("notes")
        for index in 0..<count { try text.insert("x", at: index) }
        return updates
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Pending deletes still apply when their client's structs arrive, and only those.
    @Test func pendingDeletesApplyWhenTheirStructsArrive() throws {
        let document = SharedDocument()
        let typed = try Self.typing(3, client: 1_000_001)
        try document.applyUpdate(Self.poison(clients: 5))
        #expect(document.pending?.deletes.count == 5)
        // Client 1,000,001's first character (clock 0) arrives: the pending delete of it applies.
        try document.applyUpdate(typed[0])
        try document.applyUpdate(typed[1])
        document.inferRootKinds()
        #expect(try document.text("notes").toString() == "x")
        #expect(document.pending?.deletes.map(\.client) == [1_000_000, 1_000_002, 1_000_003, 1_000_004])
        // Encoded and read again, the pending deletes travel with the document.
        let copy = SharedDocument()
        try copy.applyUpdate(try document.encodeStateAsUpdate())
        #expect(copy.pending?.deletes == document.pending?.deletes)
    }

    /// The figure: p50 and p99 of one typed character applied to a clean document and to one
    /// holding a 40,000-client pending delete set, in the same run. Passes when the poisoned
    /// document's median stays within 20 times the clean one's: a cost that grows with the
    /// pending set is hundreds of times the clean one at this size.
    @Test func aPoisonedDocumentAppliesUpdatesAsFastAsACleanOne() throws {
        let updates = try Self.typing(200)
        let poison = Self.poison(clients: 40_000)
        func measure(_ document: SharedDocument) throws -> (p50: Double, p99: Double) {
            let clock = ContinuousClock()
            var samples: [Double] = []
            for update in updates {
                let started = clock.now
                try document.applyUpdate(update)
                samples.append(Self.milliseconds(clock.now - started))
            }
            samples.sort()
            return (samples[samples.count / 2], samples[samples.count * 99 / 100])
        }
        let clean = try measure(SharedDocument())
        let poisoned = SharedDocument()
        try poisoned.applyUpdate(poison)
        let slow = try measure(poisoned)
        print("pending-delete cost: clean p50 \(clean.p50) ms p99 \(clean.p99) ms; 40,000-client pending deletes p50 \(slow.p50) ms p99 \(slow.p99) ms; poison \(poison.count) bytes")
        #expect(slow.p50 < clean.p50 * 20 + 0.5, "p50 \(slow.p50) ms against \(clean.p50) ms on a clean document")
        #expect(poisoned.pending?.deletes.count == 40_000)
    }
}
