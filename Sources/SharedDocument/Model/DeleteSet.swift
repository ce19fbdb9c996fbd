/// Deleted ranges per client: `(clock, length)`, sorted and merged by ``sortAndMerge()``.
struct DeleteSet {
    struct Range: Equatable {
        var clock: Int
        var length: Int
    }

    /// Clients in first-added order (the order Yjs writes them in).
    var clients: [Int] = []
    var ranges: [Int: [Range]] = [:]

    var isEmpty: Bool { clients.isEmpty }

    /// One hash per call (applying an update adds one range per deleted struct).
    mutating func add(client: Int, clock: Int, length: Int) {
        if let index = ranges.index(forKey: client) {
            ranges.values[index].append(Range(clock: clock, length: length))
        } else {
            clients.append(client)
            ranges[client] = [Range(clock: clock, length: length)]
        }
    }

    /// Adds sorted, merged ranges of a client not in the set yet (one hash for all of them).
    mutating func append(client: Int, ranges newRanges: [Range]) {
        guard ranges[client] == nil else {
            for range in newRanges { add(client: client, clock: range.clock, length: range.length) }
            return
        }
        clients.append(client)
        ranges[client] = newRanges
    }

    mutating func sortAndMerge() {
        for client in clients {
            guard var list = ranges[client], list.count > 1 else { continue }
            ranges[client] = nil
            list.sort { $0.clock < $1.clock }
            var write = 1
            for read in 1..<list.count {
                let right = list[read]
                if list[write - 1].clock + list[write - 1].length >= right.clock {
                    list[write - 1].length = max(list[write - 1].length, right.clock + right.length - list[write - 1].clock)
                } else {
                    list[write] = right
                    write += 1
                }
            }
            list.removeSubrange(write...)
            ranges[client] = list
        }
    }

    func contains(_ id: ID) -> Bool {
        guard let list = ranges[id.client] else { return false }
        var low = 0, high = list.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = list[middle]
            if range.clock <= id.clock {
                if id.clock < range.clock + range.length { return true }
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return false
    }

    /// Yjs's `mergeDeleteSets`: clients in first-seen order across the sets, then sorted and merged.
    static func merging(_ sets: [DeleteSet]) -> DeleteSet {
        var merged = DeleteSet()
        for set in sets {
            for client in set.clients {
                for range in set.ranges[client] ?? [] { merged.add(client: client, clock: range.clock, length: range.length) }
            }
        }
        merged.sortAndMerge()
        return merged
    }

    func write(to writer: inout ByteWriter) {
        writer.writeVarUint(clients.count)
        for client in clients {
            let list = ranges[client] ?? []
            writer.writeVarUint(client)
            writer.writeVarUint(list.count)
            for range in list {
                writer.writeVarUint(range.clock)
                writer.writeVarUint(range.length)
            }
        }
    }

    /// Reads a delete set (Yjs's `readDeleteSet`: a client with no ranges is dropped).
    static func read(from reader: inout ByteReader) throws(UpdateDecodingError) -> DeleteSet {
        var set = DeleteSet()
        let count = try reader.readCount(minimumSize: 2)
        for _ in 0..<count {
            let client = try reader.readVarUint()
            let ranges = try reader.readCount(minimumSize: 2)
            for _ in 0..<ranges {
                let clock = try reader.readVarUint()
                let length = try reader.readVarUint()
                guard clock + length < 1 << 53 else { throw reader.error(.overflow) }
                set.add(client: client, clock: clock, length: length)
            }
        }
        return set
    }
}
