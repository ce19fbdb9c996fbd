import Foundation
import SharedDocument

/// `statehub bench crdt --attacks`: what hostile updates a sync server takes within its budgets
/// cost SharedDocument (docs/sync.md §2.5), and what they cost each later update. Process CPU
/// time in milliseconds, as the rest of `bench crdt`.
struct CRDTAttackBenchmark {
    struct Result {
        var label: String
        var milliseconds: Double
    }

    /// Typed characters measured per document.
    var typed = 200
    /// Ranges of the editor's own client in the pending-delete attack.
    var pendingRanges = 1_500_000
    /// Clients in the struct-client attacks.
    var structClients = 19_000

    func run() throws -> [Result] {
        var results: [Result] = []
        func measure(_ label: String, _ body: () throws -> Void) rethrows {
            let start = CRDTBenchmark.cpuMilliseconds()
            try body()
            results.append(Result(label: label, milliseconds: CRDTBenchmark.cpuMilliseconds() - start))
        }
        /// p50 and p99 of one typed character of client 7 applied to `document`.
        func typing(_ label: String, into document: SharedDocument) throws {
            var samples: [Double] = []
            for update in try Self.typing(typed, client: 7) {
                let start = CRDTBenchmark.cpuMilliseconds()
                try document.applyUpdate(update)
                samples.append(CRDTBenchmark.cpuMilliseconds() - start)
            }
            samples.sort()
            results.append(Result(label: "\(label): one typed character, p50", milliseconds: samples[samples.count / 2]))
            results.append(Result(label: "\(label): one typed character, p99", milliseconds: samples[samples.count * 99 / 100]))
        }
        /// The server's load of a stored document: its encoding applied to a new one.
        func reload(_ label: String, _ document: SharedDocument) throws {
            let state = try document.encodeStateAsUpdate()
            try measure("\(label): encoded (\(state.count) bytes) and loaded again") {
                try SharedDocument().applyUpdate(try document.encodeStateAsUpdate())
            }
        }

        try typing("clean document", into: SharedDocument())

        let poison = Self.pendingDeletes(ranges: pendingRanges, of: 7, from: 1_000_000)
        let poisoned = SharedDocument()
        try measure("\(pendingRanges) pending ranges of the editor's client (\(poison.count) bytes): applied") { try poisoned.applyUpdate(poison) }
        try typing("  then", into: poisoned)
        try reload("  then", poisoned)

        let sameKey = Self.sameKey(clients: structClients)
        let keyed = SharedDocument()
        try measure("\(structClients) clients setting one map key (\(sameKey.count) bytes): applied") { try keyed.applyUpdate(sameKey) }
        try typing("  then", into: keyed)
        try reload("  then", keyed)

        let chain = Self.chainOnAMissingStruct(clients: structClients)
        let waiting = SharedDocument()
        try measure("\(structClients) clients waiting on one missing struct (\(chain.count) bytes): applied") { try waiting.applyUpdate(chain) }
        return results
    }

    static func typing(_ count: Int, client: Int) throws -> [[UInt8]] {
        let editor = SharedDocument(clientID: client)
        var updates: [[UInt8]] = []
        editor.observeUpdates { update, _ in updates.append(update) }
        let text = try editor.text("notes")
        for index in 0..<count { try text.insert("x", at: index) }
        return updates
    }

    static func varUint(_ value: Int, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func string(_ text: String, into bytes: inout [UInt8]) {
        varUint(text.utf8.count, into: &bytes)
        bytes += text.utf8
    }

    /// No structs; `count` one-clock ranges of `client`, every other clock from `from`.
    static func pendingDeletes(ranges count: Int, of client: Int, from: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [0, 1, client, count] { varUint(value, into: &bytes) }
        for index in 0..<count {
            varUint(from + 2 * index, into: &bytes)
            varUint(1, into: &bytes)
        }
        return bytes
    }

    /// `clients` clients from 100,000, one struct each setting key `key` of root map `m`.
    static func sameKey(clients: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        varUint(clients, into: &bytes)
        for client in 100_000..<(100_000 + clients) {
            for value in [1, client, 0] { varUint(value, into: &bytes) }
            bytes.append(0x20 | 4)  // a parent sub (key), string content
            varUint(1, into: &bytes)  // the parent is a root, by name
            for text in ["m", "key", "xx"] { string(text, into: &bytes) }
        }
        varUint(0, into: &bytes)
        return bytes
    }

    /// `clients` clients from 100,000, each one struct after the previous client's, the first
    /// after a struct nobody sent.
    static func chainOnAMissingStruct(clients: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        varUint(clients, into: &bytes)
        for client in 100_000..<(100_000 + clients) {
            for value in [1, client, 0] { varUint(value, into: &bytes) }
            bytes.append(0x80 | 4)  // an origin, string content
            for value in [client - 1, 0] { varUint(value, into: &bytes) }
            string("x", into: &bytes)
        }
        varUint(0, into: &bytes)
        return bytes
    }
}
