/// Functions on updates that need no document (what a server uses): merge, diff, state
/// vectors, for v1 here and for v2 (the `…V2` functions, and ``format(of:)`` to tell them
/// apart). They follow Yjs 13.5's lazy struct reader/writer so results match its bytes.
public enum Updates {
    /// Encodes client → clock, highest client first (Yjs `writeStateVector`).
    public static func encodeStateVector(_ vector: [Int: Int]) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(vector.count)
        for client in vector.keys.sorted(by: >) {
            writer.writeVarUint(client)
            writer.writeVarUint(vector[client] ?? 0)
        }
        return writer.bytes
    }

    public static func decodeStateVector(_ bytes: [UInt8]) throws(UpdateDecodingError) -> [Int: Int] {
        var reader = ByteReader(bytes)
        let count = try reader.readCount(minimumSize: 2)
        var vector: [Int: Int] = [:]
        for _ in 0..<count {
            let client = try reader.readVarUint()
            vector[client] = try reader.readVarUint()
        }
        return vector
    }

    /// The state vector an update brings on its own: per client, the end of the run of
    /// structs contiguous from clock 0 (Yjs `encodeStateVectorFromUpdate`).
    public static func encodeStateVectorFromUpdate(_ update: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        let decoded = try DecodedUpdate.read(update)
        var pairs: [(Int, Int)] = []
        var previousClient: Int?
        var clock = 0
        var stopped = false
        for entry in decoded.clients {
            for wire in entry.structs {
                if wire.id.client != previousClient {
                    if let previousClient, clock != 0 { pairs.append((previousClient, clock)) }
                    previousClient = wire.id.client
                    clock = 0
                    stopped = wire.id.clock != 0
                }
                if wire.kind == .skip { stopped = true }
                if !stopped { clock = wire.end }
            }
        }
        if let previousClient, clock != 0 { pairs.append((previousClient, clock)) }
        var writer = ByteWriter()
        writer.writeVarUint(pairs.count)
        for (client, end) in pairs {
            writer.writeVarUint(client)
            writer.writeVarUint(end)
        }
        return writer.bytes
    }

    /// What `update` holds beyond `stateVector` (Yjs `diffUpdate`).
    public static func diff(_ update: [UInt8], stateVector: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        let state = try decodeStateVector(stateVector)
        let decoded = try DecodedUpdate.read(update)
        var writer = LazyWriter()
        let all = decoded.clients.flatMap(\.structs)
        var index = 0
        while index < all.count {
            let current = all[index]
            let client = current.id.client
            let known = state[client] ?? 0
            if current.kind == .skip {
                index += 1
                continue
            }
            if current.end > known {
                writer.write(current, offset: max(known - current.id.clock, 0))
                index += 1
                while index < all.count, all[index].id.client == client {
                    writer.write(all[index], offset: 0)
                    index += 1
                }
            } else {
                while index < all.count, all[index].id.client == client, all[index].end <= known { index += 1 }
            }
        }
        var out = writer.finish()
        decoded.deleteSet.write(to: &out)
        return out.bytes
    }

    /// One update with everything the given updates hold (Yjs `mergeUpdates`).
    public static func merge(_ updates: [[UInt8]]) throws(UpdateDecodingError) -> [UInt8] {
        if updates.count == 1 { return updates[0] }
        var decoded: [DecodedUpdate] = []
        decoded.reserveCapacity(updates.count)
        for update in updates { decoded.append(try DecodedUpdate.read(update)) }
        // One cursor per update over its structs, Skips filtered (Yjs's LazyStructReader(…, true)).
        struct Cursor {
            var structs: [WireStruct]
            var index = 0
            var current: WireStruct? { index < structs.count ? structs[index] : nil }
            mutating func next() -> WireStruct? {
                index += 1
                return current
            }
        }
        var cursors = decoded.map { Cursor(structs: $0.clients.flatMap(\.structs).filter { $0.kind != .skip }) }
        var pendingWrite: WireStruct?
        var writer = LazyWriter()
        while true {
            cursors = cursors.filter { $0.current != nil }
            // In V8's order: an Item and a GC struct at one clock compare −1 both ways, so
            // which is written depends on the algorithm (docs/shared-document.md).
            v8Sort(&cursors) { a, b in
                guard let x = a.current, let y = b.current else { return 0 }
                return readerOrder(x, y)
            }
            guard !cursors.isEmpty, let head = cursors[0].current else { break }
            let firstClient = head.id.client
            if var written = pendingWrite {
                var current: WireStruct? = head
                var iterated = false
                while let candidate = current, candidate.end <= written.end, candidate.id.client >= written.id.client {
                    current = cursors[0].next()
                    iterated = true
                }
                guard let candidate = current, candidate.id.client == firstClient, !(iterated && candidate.id.clock > written.end) else { continue }
                if firstClient != written.id.client {
                    writer.write(written, offset: 0)
                    pendingWrite = candidate
                    _ = cursors[0].next()
                } else if written.end < candidate.id.clock {
                    if written.kind == .skip {
                        written.length = candidate.end - written.id.clock
                        pendingWrite = written
                    } else {
                        writer.write(written, offset: 0)
                        let gap = candidate.id.clock - written.end
                        pendingWrite = WireStruct(kind: .skip, id: ID(client: firstClient, clock: written.end), length: gap, parent: .none)
                    }
                } else {
                    let overlap = written.end - candidate.id.clock
                    var next = candidate
                    if overlap > 0 {
                        if written.kind == .skip {
                            written.length -= overlap
                        } else {
                            next = candidate.sliced(from: overlap)
                        }
                    }
                    if written.kind != .item && written.kind == next.kind {
                        written.length += next.length
                        pendingWrite = written
                    } else {
                        writer.write(written, offset: 0)
                        pendingWrite = next
                        _ = cursors[0].next()
                    }
                }
            } else {
                pendingWrite = head
                _ = cursors[0].next()
            }
            while let next = cursors[0].current, let written = pendingWrite, next.id.client == firstClient, next.id.clock == written.end, next.kind != .skip {
                writer.write(written, offset: 0)
                pendingWrite = next
                _ = cursors[0].next()
            }
        }
        if let pendingWrite { writer.write(pendingWrite, offset: 0) }
        var out = writer.finish()
        DeleteSet.merging(decoded.map(\.deleteSet)).write(to: &out)
        return out.bytes
    }
}

/// Yjs's `LazyStructWriter`: structs written per client run, counts filled in at the end.
struct LazyWriter: ~Copyable {
    private var parts: [(count: Int, bytes: [UInt8])] = []
    private var current = ByteWriter()
    private var currentClient = 0
    private var written = 0

    mutating func write(_ wire: WireStruct, offset: Int) {
        if written > 0 && currentClient != wire.id.client { flush() }
        if written == 0 {
            currentClient = wire.id.client
            current.writeVarUint(wire.id.client)
            current.writeVarUint(wire.id.clock + offset)
        }
        wire.write(to: &current, offset: offset)
        written += 1
    }

    private mutating func flush() {
        guard written > 0 else { return }
        parts.append((written, current.bytes))
        current = ByteWriter()
        written = 0
    }

    mutating func finish() -> ByteWriter {
        flush()
        var out = ByteWriter()
        out.writeVarUint(parts.count)
        for part in parts {
            out.writeVarUint(part.count)
            out.writeBytes(part.bytes)
        }
        return out
    }
}

extension Updates {
    /// Whether a peer already holds everything `update` carries: every struct lies under
    /// `stateVector` (client → clock) and every deletion lies in the delete set of `deletions`
    /// (a v1 update; a server's sync step 2 carries its whole delete set). A client uses it to
    /// drop a pending update that a server without acknowledgements kept (docs/sync.md §3.3).
    public static func isCovered(_ update: [UInt8], stateVector: [Int: Int], deletions: [UInt8]) throws(UpdateDecodingError) -> Bool {
        let decoded = try DecodedUpdate.read(update)
        for entry in decoded.clients {
            for wire in entry.structs where wire.kind != .skip {
                if wire.end > (stateVector[wire.id.client] ?? 0) { return false }
            }
        }
        guard !decoded.deleteSet.isEmpty else { return true }
        var known = try DecodedUpdate.read(deletions).deleteSet
        known.sortAndMerge()
        for client in decoded.deleteSet.clients {
            for range in decoded.deleteSet.ranges[client] ?? [] {
                // Ranges in `known` are merged, so a covered range lies inside one of them.
                guard let list = known.ranges[client],
                      list.contains(where: { $0.clock <= range.clock && range.clock + range.length <= $0.clock + $0.length }) else { return false }
            }
        }
        return true
    }
}
