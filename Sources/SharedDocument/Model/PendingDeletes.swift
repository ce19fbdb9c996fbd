/// Deletes of ranges not received yet (Yjs's `store.pendingDs`), kept by client and indexed by
/// clock.
///
/// Yjs keeps them as one update and applies all of them again with every update it applies:
/// one update naming 400,000 unknown clients, or 1.5 million ranges of one honest editor's
/// client, made every later update of that document cost seconds. Here each client's ranges
/// are sorted by clock, disjoint and merged on insert, and every one of them starts at or past
/// its client's state (the next clock expected). So when a client's structs arrive, the ranges
/// they make applicable are exactly those below the new state, the lowest ones: they are taken
/// from the end of the client's list (kept in descending order), and nothing else is visited.
///
/// Costs, `n` the client's pending ranges and `m` the ranges added or taken: ``take(_:below:)``
/// O(1 + m); ``record(unapplied:)`` O(m log m) to sort what it adds, then per client O(log n)
/// and an array insert for one range, or one O(n + m) merge for several. A sync server bounds
/// `n` (docs/sync.md §2.5, ``SharedDocument/pendingDeleteRanges(adding:)``).
///
/// The order Yjs would write them in is kept as a key per client: the clients of the latest
/// update's unapplied ranges first, in their order, then those of earlier updates (Yjs's
/// `mergeUpdates([rest, pendingRest])` puts first-seen clients first). Encodings stay
/// byte-identical to Yjs's.
struct PendingDeletes {
    /// Per client: disjoint, non-adjacent ranges in descending clock order (the next to apply last).
    private var ranges: [Int: [DeleteSet.Range]] = [:]
    /// Client → (update generation, position among that update's clients).
    private var order: [Int: (generation: Int, position: Int)] = [:]
    private var generation = 0
    /// Ranges pending, all clients.
    private(set) var rangeCount = 0
    /// Ranges read or written so far: probed by a binary search, taken, merged, sorted or
    /// copied by a merge (an array insert's element moves are not counted). Tests compare it
    /// with the size of what they applied, so a cost that grows with the pending set shows
    /// whatever the machine's load.
    private(set) var rangesVisited = 0

    var isEmpty: Bool { ranges.isEmpty }
    /// Clients with ranges pending.
    var clientCount: Int { ranges.count }

    func names(_ client: Int) -> Bool { ranges[client] != nil }

    /// Ranges pending for `client`.
    func rangeCount(of client: Int) -> Int { ranges[client]?.count ?? 0 }

    /// Takes out the pending ranges of `client` below `state` (the part of a range below it),
    /// to apply them: the client's structs up to `state` are here. O(1 + ranges taken).
    mutating func take(_ client: Int, below state: Int) -> [DeleteSet.Range] {
        guard let index = ranges.index(forKey: client) else { return [] }
        rangesVisited += 1
        guard let lowest = ranges.values[index].last, lowest.clock < state else { return [] }
        var taken: [DeleteSet.Range] = []
        while let range = ranges.values[index].last, range.clock < state {
            rangesVisited += 1
            ranges.values[index].removeLast()
            let end = range.clock + range.length
            if end > state {
                ranges.values[index].append(DeleteSet.Range(clock: state, length: end - state))
                taken.append(DeleteSet.Range(clock: range.clock, length: state - range.clock))
                break
            }
            rangeCount -= 1
            taken.append(range)
        }
        if ranges.values[index].isEmpty {
            ranges.remove(at: index)
            order[client] = nil
        }
        return taken
    }

    /// Whether every clock of `range` of `client` is pending already (a repeated delete set).
    /// O(log n).
    func covers(client: Int, _ range: DeleteSet.Range) -> Bool {
        guard let list = ranges[client] else { return false }
        // Descending: the first range starting at or before `range.clock`.
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].clock > range.clock { low = middle + 1 } else { high = middle }
        }
        guard low < list.count else { return false }
        return list[low].clock + list[low].length >= range.clock + range.length
    }

    /// Records the ranges an update's delete set left unapplied: their clients move first in
    /// Yjs's order, in the order of `unapplied`.
    mutating func record(unapplied: DeleteSet) {
        guard !unapplied.isEmpty else { return }
        generation -= 1
        for (position, client) in unapplied.clients.enumerated() {
            guard var added = unapplied.ranges[client], !added.isEmpty else { continue }
            rangesVisited += added.count
            added.sort { $0.clock > $1.clock }
            var list = ranges.removeValue(forKey: client) ?? []
            rangeCount -= list.count
            if added.count == 1 {
                insert(added[0], into: &list)
            } else {
                list = merged(list, added)
            }
            rangeCount += list.count
            ranges[client] = list
            order[client] = (generation, position)
        }
    }

    /// Inserts one range into a descending list, merging it with the ranges it touches.
    private mutating func insert(_ range: DeleteSet.Range, into list: inout [DeleteSet.Range]) {
        // The first range starting at or before `range.clock` (descending order).
        var low = 0, high = list.count
        while low < high {
            rangesVisited += 1
            let middle = (low + high) / 2
            if list[middle].clock > range.clock { low = middle + 1 } else { high = middle }
        }
        var start = range.clock
        var end = range.clock + range.length
        // The ranges from `first` up to `last - 1` overlap or touch the new one: all become one.
        var last = low
        if low < list.count, list[low].clock + list[low].length >= start {
            start = list[low].clock
            end = max(end, list[low].clock + list[low].length)
            last = low + 1
        }
        var first = low
        while first > 0, list[first - 1].clock <= end {
            rangesVisited += 1
            end = max(end, list[first - 1].clock + list[first - 1].length)
            first -= 1
        }
        list.replaceSubrange(first..<last, with: CollectionOfOne(DeleteSet.Range(clock: start, length: end - start)))
    }

    /// Two descending lists as one, ranges that overlap or touch merged. O(n + m).
    private mutating func merged(_ list: [DeleteSet.Range], _ added: [DeleteSet.Range]) -> [DeleteSet.Range] {
        rangesVisited += list.count + added.count
        var result: [DeleteSet.Range] = []
        result.reserveCapacity(list.count + added.count)
        var left = 0, right = 0
        while left < list.count || right < added.count {
            let next: DeleteSet.Range
            if right == added.count || (left < list.count && list[left].clock >= added[right].clock) {
                next = list[left]
                left += 1
            } else {
                next = added[right]
                right += 1
            }
            // Descending: `next` starts at or before every range kept, and may reach over
            // several of them; those it reaches become one with it.
            var end = next.clock + next.length
            while let last = result.last, end >= last.clock {
                end = max(end, last.clock + last.length)
                result.removeLast()
            }
            result.append(DeleteSet.Range(clock: next.clock, length: end - next.clock))
        }
        return result
    }

    /// The pending ranges as a delete set, clients in Yjs's order, ranges ascending.
    var deleteSet: DeleteSet {
        var set = DeleteSet()
        let clients = ranges.keys.sorted { left, right in
            let a = order[left] ?? (0, 0), b = order[right] ?? (0, 0)
            return a.generation != b.generation ? a.generation < b.generation : a.position < b.position
        }
        for client in clients { set.append(client: client, ranges: (ranges[client] ?? []).reversed()) }
        return set
    }

    /// As a v1 update with no structs.
    var update: [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(0)
        deleteSet.write(to: &writer)
        return writer.bytes
    }
}

extension PendingDeletes {
    /// The client with the most ranges pending, and the total. O(clients with ranges pending).
    var largestClient: PendingDeleteRanges {
        var result = PendingDeleteRanges(client: nil, ofClient: 0, total: rangeCount)
        for (client, list) in ranges where list.count > result.ofClient || (list.count == result.ofClient && client < (result.client ?? .max)) {
            result.client = client
            result.ofClient = list.count
        }
        return result
    }
}
