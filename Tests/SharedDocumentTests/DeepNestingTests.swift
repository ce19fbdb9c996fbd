import Testing
@testable import SharedDocument

/// Shared types nested 100,000 deep — through the API and from a hostile update — are built,
/// encoded, applied, shown and dropped without recursion on depth. Each runs in a child
/// process: a stack overflow would otherwise take the whole test runner down.
@Suite(.tags(.integration))
struct DeepNestingTests {
    static let depth = 100_000

    /// One client's update whose items nest `depth` types: the first sits in root `m` under
    /// key `k`, each next one in the previous one's type (as a map entry, or as an array
    /// element when `keyed` is false), so its parent is named by id.
    static func hostileUpdate(depth: Int, keyed: Bool, client: Int = 7) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(1)
        writer.writeVarUint(depth)
        writer.writeVarUint(client)
        writer.writeVarUint(0)
        let kind: SharedTypeKind = keyed ? .map : .array
        for clock in 0..<depth {
            let parent: WireStruct.Parent = clock == 0 ? .root("m") : .item(ID(client: client, clock: clock - 1))
            writeItem(to: &writer, origin: nil, rightOrigin: nil, parent: parent, parentSub: keyed ? "k" : nil,
                      content: .type(SharedType(kind: kind)), offset: 0)
        }
        writer.writeVarUint(0)
        return writer.bytes
    }

    /// Builds, encodes, applies, shows, deletes and drops a document `depth` maps deep.
    static func throughTheAPI(depth: Int) throws {
        var encoded: [UInt8] = []
        do {
            let document = SharedDocument(clientID: 1)
            var operations = 0
            document.observeDeep { operations += $0.operations.count }
            var map = try document.map("m")
            for _ in 0..<depth { map = try map.setMap("k") }
            // Changes are reported for types up to the nesting limit deep (paths past it are
            // not computed: one walk per change would make a deep chain quadratic).
            #expect(operations == min(depth, UpdateDecodingError.maximumNesting + 1))
            try map.set("leaf", .string("bottom"))
            encoded = try document.encodeStateAsUpdate()
            #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.toJSON() }
        }
        do {
            let copy = SharedDocument(clientID: 2)
            var changes: [ChangeSet] = []
            copy.observeDeep { changes.append($0) }
            _ = try copy.map("m")
            try copy.applyUpdate(encoded)
            #expect(try copy.encodeStateAsUpdate() == encoded)
            #expect(copy.stateVector == [1: depth + 1])
            #expect(throws: SharedDocumentError(.nestingTooDeep)) { try copy.toJSON() }
            // One operation: root `m` got key `k`, too deep to show as a value.
            #expect(changes.count == 1)
            // Deleting the top entry deletes and collects the whole chain.
            try copy.map("m").delete("k")
            #expect(try copy.toJSON() == .object(["m": .object([:])]))
        }
    }

    /// Applies a hostile deep update to a fresh document, shows it, encodes it, drops it.
    static func hostile(depth: Int, keyed: Bool) throws {
        let update = hostileUpdate(depth: depth, keyed: keyed)
        let document = SharedDocument(clientID: 1)
        var operations = 0
        document.observeDeep { operations += $0.operations.count }
        _ = try keyed ? document.map("m").toJSON() : document.array("m").toJSON()
        try document.applyUpdate(update)
        #expect(operations == 1)
        #expect(document.stateVector == [7: depth])
        #expect(try document.encodeStateAsUpdate() == update)
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.toJSON() }
        #expect(try Updates.merge([update, update]) == update)
        #expect(try Updates.encodeStateVectorFromUpdate(update) == document.encodeStateVector())
        // A delete set removing the whole chain: deleted and collected with a work list.
        var deletes = DeleteSet()
        deletes.add(client: 7, clock: 0, length: depth)
        var writer = ByteWriter()
        writer.writeVarUint(0)
        deletes.write(to: &writer)
        try document.applyUpdate(writer.bytes)
        #expect(try document.toJSON() == .object(["m": keyed ? .object([:]) : .array([])]))
    }

    @Test func mapsNested100000DeepThroughTheAPI() async {
        await #expect(processExitsWith: .success) {
            try DeepNestingTests.throughTheAPI(depth: DeepNestingTests.depth)
        }
    }

    @Test func hostileUpdateNestingMaps100000Deep() async {
        await #expect(processExitsWith: .success) {
            try DeepNestingTests.hostile(depth: DeepNestingTests.depth, keyed: true)
        }
    }

    @Test func hostileUpdateNestingArrays100000Deep() async {
        await #expect(processExitsWith: .success) {
            try DeepNestingTests.hostile(depth: DeepNestingTests.depth, keyed: false)
        }
    }

    /// The same update whose first struct arrives last: everything waits as pending, then
    /// integrates at once.
    @Test func hostileDeepUpdateArrivingOutOfOrder() async {
        await #expect(processExitsWith: .success) {
            let update = DeepNestingTests.hostileUpdate(depth: DeepNestingTests.depth, keyed: true)
            let document = SharedDocument(clientID: 1)
            let rest = try Updates.diff(update, stateVector: Updates.encodeStateVector([7: 1]))
            try document.applyUpdate(rest)
            #expect(document.stateVector.isEmpty)
            try document.applyUpdate(update)
            #expect(document.stateVector == [7: DeepNestingTests.depth])
            #expect(try document.encodeStateAsUpdate() == update)
        }
    }

    /// The small case runs in-process, so a failing expectation shows its values.
    @Test func shallowNestingInProcess() throws {
        try Self.throughTheAPI(depth: 600)
        try Self.hostile(depth: 600, keyed: true)
        try Self.hostile(depth: 600, keyed: false)
        // Within the limit, toJSON shows the whole chain.
        let document = SharedDocument(clientID: 1)
        try document.applyUpdate(Self.hostileUpdate(depth: 500, keyed: true))
        let expected = (0..<500).reduce(YValue.object([:])) { inner, _ in .object(["k": inner]) }
        #expect(try document.map("m").toJSON() == expected)
    }
}
