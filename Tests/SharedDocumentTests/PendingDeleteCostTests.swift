import StateHubTesting
import Testing
@testable import SharedDocument

/// Pending deletes (deletes of structs not received) must not make later updates slow: one
/// update of 2.4 MB naming 400,000 unknown clients, or of 6.9 MB naming 1.5 million ranges of
/// an honest editor's own client, made every later update cost seconds, because each update
/// applied and sorted the whole pending set again. The cost is counted in ranges visited
/// (`PendingDeletes.rangesVisited`), not timed: it holds on a loaded machine and fails on a
/// cost that grows with the pending set.
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

    /// An update with no structs whose delete set names `count` one-clock ranges of `client`,
    /// every other clock from `from`: none merges with another.
    static func poison(ranges count: Int, of client: Int, from: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(0)
        writer.writeVarUint(1)
        writer.writeVarUint(client)
        writer.writeVarUint(count)
        for index in 0..<count {
            writer.writeVarUint(from + 2 * index)
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

    /// Applies `updates` one by one; returns the most ranges one of them visited.
    static func mostVisited(_ document: SharedDocument, applying updates: [[UInt8]]) throws -> Int {
        var most = 0
        for update in updates {
            let before = document.pendingDeletes.rangesVisited
            try document.applyUpdate(update)
            most = max(most, document.pendingDeletes.rangesVisited - before)
        }
        return most
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

    /// The attack at full size: 1.5 million ranges (6.9 MB) of the client an honest editor
    /// types under, past what it typed. Each of the editor's 200 updates visits at most two
    /// ranges (the lowest pending one, compared with the new state); the pending set stays.
    @Test func rangesAimedAtAnEditorsClientCostItsUpdatesNothing() throws {
        let poison = Self.poison(ranges: 1_500_000, of: 7, from: 1_000_000)
        #expect(poison.count > 6_500_000)
        let document = SharedDocument()
        try document.applyUpdate(poison)
        #expect(document.pendingDeletes.rangeCount == 1_500_000)
        let most = try Self.mostVisited(document, applying: try Self.typing(200))
        #expect(most <= 2, "one typed character visited \(most) pending ranges")
        #expect(try document.text("notes").toString().count == 200)
        #expect(document.pendingDeleteRanges == PendingDeleteRanges(client: 7, ofClient: 1_500_000, total: 1_500_000))
    }

    /// Pending ranges the editor's structs reach apply as they arrive, each update visiting
    /// only those it covers: every other character of 200 is deleted, whatever else is pending.
    @Test func rangesAStructReachesApplyVisitingOnlyThose() throws {
        let document = SharedDocument()
        try document.applyUpdate(Self.poison(ranges: 100, of: 7, from: 0))
        try document.applyUpdate(Self.poison(ranges: 200_000, of: 7, from: 1_000_000))
        let most = try Self.mostVisited(document, applying: try Self.typing(200))
        #expect(most <= 3, "one typed character visited \(most) pending ranges")
        #expect(try document.text("notes").toString().count == 100)
        #expect(document.pendingDeletes.rangeCount == 200_000)
    }

    /// Many clients pending (a delete set naming 40,000 unknown clients): a typed character of
    /// another client visits none of them.
    @Test func manyPendingClientsCostAnotherClientsUpdatesNothing() throws {
        let document = SharedDocument()
        try document.applyUpdate(Self.poison(clients: 40_000))
        let most = try Self.mostVisited(document, applying: try Self.typing(200))
        #expect(most <= 2, "one typed character visited \(most) pending ranges")
        #expect(document.pending?.deletes.count == 40_000)
    }

    /// Ranges added one update at a time are merged on insert: a repeated delete set adds
    /// nothing (and is no change), touching ranges become one.
    @Test func rangesAreMergedOnInsert() throws {
        let document = SharedDocument()
        let poison = Self.poison(ranges: 1_000, of: 9, from: 100)
        try document.applyUpdate(poison)
        #expect(try document.wouldChange(poison) == false)
        try document.applyUpdate(poison)
        #expect(document.pendingDeletes.rangeCount == 1_000)
        // The clocks between fill the gaps: one range from 100 to 2,099.
        try document.applyUpdate(Self.poison(ranges: 999, of: 9, from: 101))
        #expect(document.pendingDeletes.rangeCount == 1)
        #expect(document.pending?.deletes == [PendingContent.Span(client: 9, clocks: 100..<2_099)])
    }

    /// `PendingDeletes` against a model (a set of clocks per client): random ranges recorded
    /// one update at a time, singly and in batches, and taken below random states.
    @Test func pendingDeletesMatchAModel() {
        var generator = SeededRandomNumberGenerator(seed: 34)
        var pending = PendingDeletes()
        var model: [Int: Set<Int>] = [:]
        var states: [Int: Int] = [:]
        for _ in 0..<2_000 {
            var unapplied = DeleteSet()
            for _ in 0..<Int(generator.next() % 3) + 1 {
                let client = Int(generator.next() % 3)
                let state = states[client] ?? 0
                let count = generator.next() % 4 == 0 ? Int(generator.next() % 6) + 2 : 1
                for _ in 0..<count {
                    let clock = state + Int(generator.next() % 200)
                    let length = Int(generator.next() % 5) + 1
                    unapplied.add(client: client, clock: clock, length: length)
                    model[client, default: []].formUnion(clock..<(clock + length))
                }
            }
            pending.record(unapplied: unapplied)
            let client = Int(generator.next() % 3)
            let state = (states[client] ?? 0) + Int(generator.next() % 8)
            states[client] = state
            let taken = pending.take(client, below: state)
            var takenClocks = Set<Int>()
            for range in taken { takenClocks.formUnion(range.clock..<(range.clock + range.length)) }
            #expect(takenClocks == (model[client] ?? []).filter { $0 < state })
            model[client] = (model[client] ?? []).filter { $0 >= state }
            let set = pending.deleteSet
            for client in 0..<3 {
                let ranges = set.ranges[client] ?? []
                var clocks = Set<Int>()
                for range in ranges { clocks.formUnion(range.clock..<(range.clock + range.length)) }
                #expect(clocks == (model[client] ?? []), "client \(client)")
                // Ascending, disjoint, not touching: as Yjs's sortAndMergeDeleteSet leaves them.
                for (left, right) in zip(ranges, ranges.dropFirst()) {
                    #expect(left.clock + left.length < right.clock)
                }
                #expect(pending.rangeCount(of: client) == ranges.count)
            }
        }
    }
}

