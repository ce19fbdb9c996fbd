/// Every struct of a document: per client, a contiguous array ordered by clock.
///
/// Clients keep the order in which the store first met them (Yjs's `Map` order), which is
/// the order a document's delete set is written in.
struct StructStore {
    /// Per-client struct arrays, in first-met order.
    var lists: [[Item]] = []
    /// The client of each list.
    var clientOfList: [Int] = []
    /// Client → index into `lists`.
    var listIndex: [Int: Int] = [:]
    /// Per list, the transaction that last added to it (``beginTransaction()`` numbers them) and
    /// the list's state before that: a transaction knows what it added without a copy of every
    /// client's state (such a copy costs each update O(clients), 2 ms at 19,000 clients).
    var grownIn: [Int] = []
    var stateBeforeGrowth: [Int] = []
    /// The lists the current transaction added to, in the order it first did.
    var grownSlots: [Int] = []
    var transactionNumber = 0

    /// The list of `client`: a scan of the client ids while they are few (a document usually
    /// has a handful; hashing an `Int` costs more than comparing eight), a dictionary after.
    @inline(__always)
    func slotIndex(of client: Int) -> Int? {
        if clientOfList.count <= 8 {
            var index = 0
            while index < clientOfList.count {
                if clientOfList[index] == client { return index }
                index += 1
            }
            return nil
        }
        return listIndex[client]
    }

    /// `findIndex` in the list at `slot`, without copying the list.
    @inline(__always)
    func findIndex(slot: Int, _ clock: Int) -> Int? {
        lists[slot].withUnsafeBufferPointer { Self.findIndex($0, clock) }
    }

    /// The next clock expected from `client` (0 when unknown).
    @inline(__always)
    func state(of client: Int) -> Int {
        guard let slot = slotIndex(of: client), let last = lists[slot].last else { return 0 }
        return last.id.clock + last.length
    }

    /// Client → next clock, for every client.
    var stateVector: [Int: Int] {
        var vector: [Int: Int] = [:]
        vector.reserveCapacity(lists.count)
        for slot in lists.indices { if let last = lists[slot].last { vector[clientOfList[slot]] = last.id.clock + last.length } }
        return vector
    }

    mutating func slot(for client: Int) -> Int {
        if let slot = slotIndex(of: client) { return slot }
        let slot = lists.count
        lists.append([])
        clientOfList.append(client)
        grownIn.append(-1)
        stateBeforeGrowth.append(0)
        listIndex[client] = slot
        return slot
    }

    /// Appends a struct that starts exactly at its client's state.
    mutating func add(_ item: Item) {
        let slot = slot(for: item.id.client)
        if grownIn[slot] != transactionNumber {
            grownIn[slot] = transactionNumber
            stateBeforeGrowth[slot] = lists[slot].last.map { $0.id.clock + $0.length } ?? 0
            grownSlots.append(slot)
        }
        lists[slot].append(item)
    }

    /// Starts counting what a new transaction adds.
    mutating func beginTransaction() {
        transactionNumber += 1
        grownSlots.removeAll(keepingCapacity: true)
    }

    /// The state `client` had before the current transaction, or nil if it added no struct of it.
    func stateBeforeTransaction(of client: Int) -> Int? {
        guard let slot = slotIndex(of: client), grownIn[slot] == transactionNumber else { return nil }
        return stateBeforeGrowth[slot]
    }

    /// Client → state before the current transaction, for the clients it added structs to.
    var grownClients: [Int: Int] {
        var clients: [Int: Int] = [:]
        clients.reserveCapacity(grownSlots.count)
        for slot in grownSlots { clients[clientOfList[slot]] = stateBeforeGrowth[slot] }
        return clients
    }

    /// Binary search (with Yjs's pivot guess) for the struct containing `clock`.
    static func findIndex(_ structs: UnsafeBufferPointer<Item>, _ clock: Int) -> Int? {
        guard var right = structs.indices.last else { return nil }
        var left = 0
        let last = structs[right]
        // The last struct first: applying an update, an item's origin is most often the
        // struct integrated just before it.
        if last.id.clock <= clock {
            if clock < last.id.clock + last.length { return right }
            return nil
        }
        let span = last.id.clock + last.length - 1
        var middle = span > 0 ? Int((Double(clock) / Double(span) * Double(right)).rounded(.down)) : 0
        middle = min(max(middle, 0), right)
        while left <= right {
            let candidate = structs[middle]
            if candidate.id.clock <= clock {
                if clock < candidate.id.clock + candidate.length { return middle }
                left = middle + 1
            } else {
                right = middle - 1
            }
            middle = (left + right) / 2
        }
        return nil
    }

    /// Where the struct containing `id` sits, and the struct: one lookup instead of three.
    @inline(__always)
    func locate(_ id: ID) -> (slot: Int, index: Int, item: Item)? {
        guard let slot = slotIndex(of: id.client) else { return nil }
        return lists[slot].withUnsafeBufferPointer { structs in
            guard let index = Self.findIndex(structs, id.clock) else { return nil }
            return (slot, index, structs[index])
        }
    }

    /// `locate`, the struct returned unretained: valid while the store holds it.
    @inline(__always)
    func locateUnretained(_ id: ID) -> (slot: Int, index: Int, item: Unmanaged<Item>)? {
        guard let slot = slotIndex(of: id.client) else { return nil }
        return lists[slot].withUnsafeBufferPointer { structs in
            guard let index = Self.findIndex(structs, id.clock) else { return nil }
            return (slot, index, Unmanaged.passUnretained(structs[index]))
        }
    }

    func find(_ id: ID) -> Item? {
        guard let slot = slotIndex(of: id.client), let index = findIndex(slot: slot, id.clock) else { return nil }
        return lists[slot][index]
    }
}
