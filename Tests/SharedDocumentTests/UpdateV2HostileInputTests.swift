import Testing
@testable import SharedDocument
import StateHubTesting

/// The v2 reader given bytes nobody should send: every prefix of a real update, lengths and
/// run counts past what the input holds, runs that expand past 2⁵³ or out of the clock range,
/// `Any` values nested past the limit, a chain of arrays nested 10,000 deep in a few bytes, and
/// random mutations of real updates. Each is a typed error with the document untouched, or
/// an update that reads and writes back.
@Suite(.tags(.unit))
struct UpdateV2HostileInputTests {
    /// docs/shared-document.md's worked example, written by Yjs 13.5: client 1 inserts "hi"
    /// into text `t`, sets `m.k = 7`, deletes the "h".
    static let exampleV2: [UInt8] = [0, 0, 2, 65, 0, 1, 0, 0, 5, 1, 0, 132, 0, 40, 7, 4, 116, 105, 109, 107, 65, 2, 1, 1, 0, 2, 65, 0, 1, 3, 0, 125, 7, 1, 1, 1, 0, 0]
    static let exampleV1: [UInt8] = [1, 3, 1, 0, 1, 1, 1, 116, 1, 132, 1, 0, 1, 105, 40, 1, 1, 109, 1, 107, 1, 125, 7, 1, 1, 1, 0, 1]

    /// A v2 update from its nine columns and its rest.
    static func update(keyClock: [UInt8] = [], client: [UInt8] = [], leftClock: [UInt8] = [], rightClock: [UInt8] = [], info: [UInt8] = [],
                       strings: [UInt8] = [0], parentInfo: [UInt8] = [], typeRef: [UInt8] = [], length: [UInt8] = [], rest: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(0)
        for column in [keyClock, client, leftClock, rightClock, info, strings, parentInfo, typeRef, length] { writer.writeVarBytes(column) }
        writer.writeBytes(rest)
        return writer.bytes
    }

    static func varuint(_ value: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(value)
        return writer.bytes
    }

    static func varint(_ value: Int64) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarInt(value)
        return writer.bytes
    }

    /// Applies `update` to a document holding something; expects `kind`, the document unchanged.
    static func expectRefused(_ update: [UInt8], _ kind: UpdateDecodingError.Kind, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = SharedDocument(clientID: 9)
        try document.map("m").set("a", .int(1))
        let before = try document.encodeStateAsUpdateV2()
        do {
            try document.applyUpdateV2(update)
            Issue.record("accepted: \(comment)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, comment, sourceLocation: sourceLocation)
        }
        #expect(try document.encodeStateAsUpdateV2() == before, "the document changed: \(comment)", sourceLocation: sourceLocation)
    }

    @Test func theWorkedExampleReadsAndWritesAsYjs() throws {
        let document = SharedDocument(clientID: 2)
        _ = try document.text("t")
        _ = try document.map("m")
        try document.applyUpdateV2(Self.exampleV2)
        #expect(try document.toJSON() == .object(["t": .string("i"), "m": .object(["k": .int(7)])]))
        #expect(try document.encodeStateAsUpdateV2() == Self.exampleV2)
        #expect(try Updates.convertV2ToV1(Self.exampleV2) == Self.exampleV1)
        #expect(try Updates.convertV1ToV2(Self.exampleV1) == Self.exampleV2)
        #expect(Updates.format(of: Self.exampleV2) == .v2)
        #expect(Updates.format(of: Self.exampleV1) == .v1)
    }

    @Test func everyPrefixIsRefused() throws {
        var updates = [Self.exampleV2]
        for seed in UInt64(1)...UInt64(2) {
            let sessions = try randomSessionUpdates(seed: seed, edits: 30)
            updates.append(try Updates.convertV1ToV2(try Updates.merge(sessions)))
        }
        for update in updates {
            for end in 0..<update.count {
                let document = SharedDocument(clientID: 9)
                #expect(throws: UpdateDecodingError.self, "a prefix of \(end) of \(update.count) bytes") { try document.applyUpdateV2(Array(update[..<end])) }
                #expect(document.stateVector.isEmpty)
            }
        }
    }

    @Test func lengthsPastTheInputAreRefusedBeforeReading() throws {
        // A column claiming 2^40 bytes.
        try Self.expectRefused([0, 0] + Self.varuint(1 << 40), .invalidLength, "a column longer than the input")
        // 2^35 GC structs from a 14-byte update: the info column repeats GC forever and the
        // length column claims a run of 2^32 ones.
        let manyStructs = Self.update(client: Self.varint(1), info: [0], length: Self.varint(-1) + Self.varuint(1 << 32),
                                      rest: [1] + Self.varuint(1 << 35) + [0, 0])
        try Self.expectRefused(manyStructs, .invalidLength, "more structs than the value budget")
        // A string longer than the string column holds.
        let longString = Self.update(client: Self.varint(1), info: [4], strings: [1, 97] + Self.varint(5), parentInfo: [1],
                                     rest: [1, 1, 0, 0])
        try Self.expectRefused(longString, .invalidLength, "a string past its column")
        // An Any count of 2^40 with no values behind it.
        let manyValues = Self.update(client: Self.varint(1), info: [8], strings: [1, 114] + Self.varint(1), parentInfo: [1],
                                     length: Self.varint(1 << 40), rest: [1, 1, 0, 125, 1])
        try Self.expectRefused(manyValues, .invalidLength, "an Any count past the value budget")
    }

    @Test func runsPastTheClockRangeAreRefused() throws {
        // Three GC structs of 2^52 clocks each: the third starts past 2^53.
        let gcRun = Self.update(client: Self.varint(1), info: [0], length: Self.varint(-(1 << 52)) + Self.varuint(1), rest: [1, 3, 0, 0])
        try Self.expectRefused(gcRun, .overflow, "clocks past 2^53")
        // An origin clock one below zero (a difference of −1 from 0).
        let negativeClock = Self.update(client: Self.varint(-1) + Self.varuint(0), leftClock: Self.varint(-2), info: [0x88],
                                        length: Self.varint(1), rest: [1, 1, 0, 125, 1, 0])
        try Self.expectRefused(negativeClock, .invalidStructure("left clock column runs out of 0 ..< 2^53"), "a negative clock")
        // A column read past its end.
        let shortColumn = Self.update(client: Self.varint(1), info: [8], parentInfo: [1], rest: [1, 1, 0, 125, 1, 0])
        try Self.expectRefused(shortColumn, .truncated, "an empty string column read")
    }

    @Test func anyValuesNestedPastTheLimitAreRefused() throws {
        let depth = UpdateDecodingError.maximumNesting + 100
        let nested = Self.update(client: Self.varint(1), info: [8], strings: [1, 114] + Self.varint(1), parentInfo: [1], length: Self.varint(1),
                                 rest: [1, 1, 0] + Array(repeating: [117, 1], count: depth).flatMap { $0 } + [126, 0])
        try Self.expectRefused(nested, .nestingTooDeep, "an Any value \(depth) deep")
    }

    @Test func aChainOfTenThousandArraysIsAFewBytesAndReadsBack() throws {
        let v1 = DeepNestingTests.hostileUpdate(depth: 10_000, keyed: false)
        let v2 = try Updates.convertV1ToV2(v1)
        #expect(v2.count < 64, "10,000 nested arrays in \(v2.count) bytes")
        let document = SharedDocument(clientID: 2)
        try document.applyUpdateV2(v2)
        #expect(document.stateVector == [7: 10_000])
        #expect(try document.encodeStateAsUpdateV2() == v2)
        #expect(try document.encodeStateAsUpdate() == v1)
        _ = try document.array("m")
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.toJSON() }
    }

    @Test("mutated v2 updates never crash and never half-apply", arguments: Array(UInt64(1)...UInt64(3)))
    func mutatedUpdates(seed: UInt64) throws {
        let corpus = try randomSessionUpdates(seed: seed, edits: 60).map(Updates.convertV1ToV2) + [Self.exampleV2]
        var random = SeededRandomNumberGenerator(seed: seed &* 104_729)
        var accepted = 0
        var refused = 0
        for _ in 0..<1500 {
            var bytes = corpus[Int(random.next() % UInt64(corpus.count))]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 5 {
                case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                case 1: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                case 3: bytes.remove(at: position)
                default: bytes.removeSubrange(position...)
                }
            }
            let document = SharedDocument(clientID: 500)
            try document.map("m").set("a", .int(1))
            let before = try document.encodeStateAsUpdateV2()
            do {
                try document.applyUpdateV2(bytes)
            } catch {
                refused += 1
                #expect(try document.encodeStateAsUpdateV2() == before, "refused update (\(error)) changed the document: \(bytes)")
                continue
            }
            accepted += 1
            // What was accepted encodes in both formats, and the v2 reads back.
            let after = try document.encodeStateAsUpdateV2()
            let copy = SharedDocument(clientID: 501)
            try copy.applyUpdateV2(after)
            _ = try document.encodeStateAsUpdate()
            _ = try? Updates.mergeV2([bytes, corpus[0]])
            _ = try? Updates.diffV2(bytes, stateVector: [0])
            _ = Updates.format(of: bytes)
        }
        #expect(accepted > 0)
        #expect(refused > 0)
    }
}
