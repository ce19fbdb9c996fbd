import Foundation
import StateHubTesting

/// One crdt-benchmarks workload (dmonad/crdt-benchmarks B1, B2, B4), as data every
/// implementation replays: Swift here, Yjs under node and Yrs under python3.
struct CRDTWorkload: Codable {
    enum Kind: String, Codable {
        /// Text edits: `[position, deleteCount, inserted text]`, one transaction each.
        case text
        /// Array pushes: one item per transaction (`inserted` is the value, as a string).
        case arrayPush
    }

    struct Op: Codable {
        var position: Int
        var delete: Int
        var insert: String

        init(_ position: Int, _ delete: Int, _ insert: String) {
            self.position = position
            self.delete = delete
            self.insert = insert
        }

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            position = try container.decode(Int.self)
            delete = try container.decode(Int.self)
            insert = try container.decode(String.self)
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(position)
            try container.encode(delete)
            try container.encode(insert)
        }
    }

    var key: String
    var label: String
    var kind: Kind
    /// Ops of the first replica.
    var ops: [Op]
    /// B2: ops of a second replica made concurrently, then both sync.
    var concurrentOps: [Op]?

    /// A deterministic generator (SplitMix64) so every implementation replays the same ops.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
        }
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz")

    static func standard(count: Int, trace: [Op]?, traceLabel: String) -> [CRDTWorkload] {
        var random = SeededRandomNumberGenerator(seed: 42)
        let append = (0..<count).map { Op($0, 0, String(letters[$0 % 26])) }
        var length = 0
        var randomInserts: [Op] = []
        for _ in 0..<count {
            randomInserts.append(Op(random.next(below: length + 1), 0, String(letters[random.next(below: 26)])))
            length += 1
        }
        let push = (0..<count).map { Op($0, 0, String($0)) }
        var replicaA: [Op] = []
        var replicaB: [Op] = []
        var lengthA = 0
        var lengthB = 0
        for _ in 0..<(count / 2) {
            replicaA.append(Op(random.next(below: lengthA + 1), 0, String(letters[random.next(below: 26)])))
            lengthA += 1
            replicaB.append(Op(random.next(below: lengthB + 1), 0, String(letters[random.next(below: 26)])))
            lengthB += 1
        }
        return [
            CRDTWorkload(key: "b1_append", label: "B1.1 append \(count) characters", kind: .text, ops: append),
            CRDTWorkload(key: "b1_random", label: "B1.4 insert \(count) characters at random", kind: .text, ops: randomInserts),
            CRDTWorkload(key: "b1_push", label: "B1.6 push \(count) array items", kind: .arrayPush, ops: push),
            CRDTWorkload(key: "b2_concurrent", label: "B2 2 replicas × \(count / 2) random inserts, then sync", kind: .text, ops: replicaA, concurrentOps: replicaB),
            CRDTWorkload(key: "b4_trace", label: "B4 \(traceLabel)", kind: .text, ops: trace ?? synthetic(count: 20_000)),
        ]
    }

    /// A synthetic editing trace shaped like a real one: mostly typing forward at a cursor,
    /// some backspaces, occasional jumps; about 1 delete per 6 inserts.
    static func synthetic(count: Int) -> [Op] {
        var random = SeededRandomNumberGenerator(seed: 7)
        var ops: [Op] = []
        var length = 0
        var cursor = 0
        for _ in 0..<count {
            if random.next(below: 40) == 0 { cursor = random.next(below: length + 1) }
            if length > 0 && cursor > 0 && random.next(below: 7) == 0 {
                ops.append(Op(cursor - 1, 1, ""))
                cursor -= 1
                length -= 1
            } else {
                ops.append(Op(cursor, 0, random.next(below: 6) == 0 ? " " : String(letters[random.next(below: 26)])))
                cursor += 1
                length += 1
            }
        }
        return ops
    }

    /// Reads a josephg/editing-traces JSON file (`{"txns":[{"patches":[[pos, del, ins]]}]}`,
    /// optionally gzip-compressed): one op per patch. Every patch is checked against the
    /// length the patches before it leave, so a malformed trace is a ``CRDTTraceError``
    /// naming the patch, before any implementation replays it.
    static func loadTrace(_ path: String) throws -> [Op] {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if data.starts(with: [0x1F, 0x8B]) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gzip", "-dc", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CRDTTraceError.notGzip(status: process.terminationStatus) }
        }
        struct Trace: Decodable {
            struct Transaction: Decodable { var patches: [Op] }
            var txns: [Transaction]
        }
        let trace: Trace
        do {
            trace = try JSONDecoder().decode(Trace.self, from: data)
        } catch {
            throw CRDTTraceError.notATrace("\(error)")
        }
        var length = 0
        for (transactionIndex, transaction) in trace.txns.enumerated() {
            for (patchIndex, op) in transaction.patches.enumerated() {
                guard op.position >= 0, op.delete >= 0, op.position <= length, op.delete <= length - op.position else {
                    throw CRDTTraceError.patchOutOfRange(transaction: transactionIndex, patch: patchIndex, position: op.position, delete: op.delete, length: length)
                }
                length += op.insert.utf16.count - op.delete
            }
        }
        return trace.txns.flatMap(\.patches)
    }
}
