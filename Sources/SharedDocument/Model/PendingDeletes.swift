/// Deletes of ranges not received yet (Yjs's `store.pendingDs`), kept by client.
///
/// Yjs keeps them as one update and applies all of them again with every update it applies:
/// one update naming 400,000 unknown clients made every later update of that document cost
/// 1.5 s. Here an update retries only the pending ranges of the clients whose structs it
/// brings, so applying it costs what it brings, whatever is pending.
///
/// The order Yjs would write them in is kept as a key per client: the clients of the latest
/// update's unapplied ranges first, in their order, then those of earlier updates (Yjs's
/// `mergeUpdates([rest, pendingRest])` puts first-seen clients first). Encodings stay
/// byte-identical to Yjs's.
struct PendingDeletes {
    private var ranges: [Int: [DeleteSet.Range]] = [:]
    /// Client → (update generation, position among that update's clients).
    private var order: [Int: (generation: Int, position: Int)] = [:]
    private var generation = 0

    var isEmpty: Bool { ranges.isEmpty }
    /// Clients with ranges pending.
    var clientCount: Int { ranges.count }

    func names(_ client: Int) -> Bool { ranges[client] != nil }

    /// Takes out the ranges pending for `client`, to apply them again.
    mutating func take(_ client: Int) -> [DeleteSet.Range]? {
        ranges.removeValue(forKey: client)
    }

    /// Records what stayed unapplied: `unapplied` from the update just applied (its clients
    /// move first), `leftover` from ranges taken out and retried (they keep their place).
    /// `retried` are the clients taken out: those with nothing left are forgotten.
    mutating func record(unapplied: DeleteSet, leftover: DeleteSet, retried: [Int]) {
        if !unapplied.isEmpty { generation -= 1 }
        for (position, client) in unapplied.clients.enumerated() {
            var merged = DeleteSet()
            merged.append(client: client, ranges: (leftover.ranges[client] ?? []) + (ranges[client] ?? []) + (unapplied.ranges[client] ?? []))
            merged.sortAndMerge()
            ranges[client] = merged.ranges[client]
            order[client] = (generation, position)
        }
        for client in leftover.clients where unapplied.ranges[client] == nil {
            ranges[client] = leftover.ranges[client]
        }
        for client in retried where ranges[client] == nil { order[client] = nil }
    }

    /// The pending ranges as a delete set, clients in Yjs's order.
    var deleteSet: DeleteSet {
        var set = DeleteSet()
        let clients = ranges.keys.sorted { left, right in
            let a = order[left] ?? (0, 0), b = order[right] ?? (0, 0)
            return a.generation != b.generation ? a.generation < b.generation : a.position < b.position
        }
        for client in clients { set.append(client: client, ranges: ranges[client] ?? []) }
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
