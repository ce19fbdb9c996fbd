import Testing
@testable import SharedDocument

/// One update may bring structs of up to the server's 20,000-client budget: integrating them must
/// be linear. 19,000 clients each setting one map key, in one 300 KB update, cost 15–30 s on the
/// server (every entry with no left neighbour walked the key's whole list), stored, and again on
/// every load. Work is counted (`SharedDocument.itemsScanned`), not timed.
@Suite(.serialized, .tags(.unit))
struct StructClientCostTests {
    static let clients = 19_000
    static let firstClient = 100_000

    /// `clients` clients, one struct each at clock 0, each setting key `key` of root map `m`
    /// with no neighbour: as a hostile writer sends them.
    static func sameKey(clients: Int = clients) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(clients)
        for client in firstClient..<(firstClient + clients) {
            writer.writeVarUint(1)
            writer.writeVarUint(client)
            writer.writeVarUint(0)
            writer.write(0x20 | 4)  // a parent sub (key), string content
            writer.writeVarUint(1)  // the parent is a root, by name
            writer.writeString("m")
            writer.writeString("key")
            writer.writeString("xx")
        }
        writer.writeVarUint(0)
        return writer.bytes
    }

    /// `clients` clients, each one struct after the previous client's, the first after a struct
    /// of a client nobody sent: all of them wait.
    static func chainOnAMissingStruct(clients: Int = clients) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(clients)
        for client in firstClient..<(firstClient + clients) {
            writer.writeVarUint(1)
            writer.writeVarUint(client)
            writer.writeVarUint(0)
            writer.write(0x80 | 4)  // an origin, string content
            writer.writeVarUint(client - 1)
            writer.writeVarUint(0)
            writer.writeString("x")
        }
        writer.writeVarUint(0)
        return writer.bytes
    }

    /// The first item of `key`'s list, walked from the newest.
    static func walkedStart(_ type: SharedType, _ key: String) -> Item? {
        var node = type.map[key]
        while let item = node, let left = item.left { node = left }
        return node
    }

    @Test func clientsSettingOneKeyAreIntegratedInLinearWork() throws {
        let update = Self.sameKey()
        #expect(update.count > 290_000)
        let document = SharedDocument()
        try document.applyUpdate(update)
        // Each entry scans at most the one entry it lands before.
        #expect(document.itemsScanned <= Self.clients, "\(document.itemsScanned) items scanned for \(Self.clients) entries")
        let map = try document.map("m")
        // The client with the highest id wins, as in Yjs; a map entry's value is the last
        // element of its content (Yjs's `typeMapGet`): "x" of "xx".
        #expect(try map.get("key") == .string("x"))
        #expect(document.store.state(of: Self.firstClient + Self.clients - 1) == 2)
        let type = try #require(document.share["m"])
        #expect(type.keyStarts["key"] === Self.walkedStart(type, "key"))

        // Loaded again from its encoding (what the server does on every load): the same work.
        let reloaded = SharedDocument()
        try reloaded.applyUpdate(try document.encodeStateAsUpdate())
        #expect(reloaded.itemsScanned <= Self.clients, "\(reloaded.itemsScanned) items scanned loading \(Self.clients) entries")
        #expect(try reloaded.encodeStateAsUpdate() == document.encodeStateAsUpdate())

        // Later entries set with and without a left neighbour keep the first item right.
        let editor = SharedDocument(clientID: 7)
        try editor.applyUpdate(try document.encodeStateAsUpdate())
        var updates: [[UInt8]] = []
        _ = editor.observeUpdates { update, _ in updates.append(update) }
        try editor.map("m").set("key", .int(1))
        let before = document.itemsScanned
        for update in updates { try document.applyUpdate(update) }
        #expect(document.itemsScanned - before <= 1)
        #expect(try document.map("m").get("key") == .int(1))
        let single = SharedDocument()
        try single.applyUpdate(Self.sameKey(clients: 1))
        try document.applyUpdate(try single.encodeStateAsUpdate())
        #expect(type.keyStarts["key"] === Self.walkedStart(type, "key"))
    }

    @Test func clientsWaitingOnOneMissingStructAreSetAsideInOnePass() throws {
        let update = Self.chainOnAMissingStruct()
        let document = SharedDocument()
        try document.applyUpdate(update)
        let waiting = try #require(document.pending)
        #expect(waiting.structs.count == Self.clients)
        #expect(waiting.missing == [PendingContent.Span(client: Self.firstClient - 1, clocks: 0..<1)])
        // The missing struct arrives: all of them integrate, one after another.
        let missing = SharedDocument(clientID: Self.firstClient - 1)
        try missing.text("t").insert("y", at: 0)
        try document.applyUpdate(try missing.encodeStateAsUpdate())
        #expect(document.pending == nil)
        document.inferRootKinds()
        #expect(try document.text("t").toString() == "y" + String(repeating: "x", count: Self.clients))
    }
}
