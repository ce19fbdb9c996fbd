/// The items one YATA conflict scan has passed (`integrate`'s `itemsBeforeOrigin` and
/// `conflictingItems`), asked whether one of them holds a given id.
///
/// A scan usually passes a handful of items: they are kept in a list and asked by clock range
/// (no hashing, no lookup of the id's item in the store). Past `linearLimit` items the set
/// hashes them, as Yjs's `Set` does, so a long scan stays linear overall.
struct ItemScanSet {
    private static let linearLimit = 16
    /// Unretained: every item here is owned by the store for the whole scan.
    private var list: [Unmanaged<Item>] = []
    private var hashed: Set<ObjectIdentifier>?

    init() { list.reserveCapacity(Self.linearLimit) }

    mutating func insert(_ item: Item) {
        if hashed != nil {
            hashed?.insert(ObjectIdentifier(item))
            return
        }
        list.append(Unmanaged.passUnretained(item))
        if list.count > Self.linearLimit { hashed = Set(list.map { ObjectIdentifier($0.takeUnretainedValue()) }) }
    }

    mutating func removeAll() {
        list.removeAll(keepingCapacity: true)
        hashed = nil
    }

    /// Whether the struct of `store` that holds `id` is in the set (false when none holds it).
    func containsItem(holding id: ID, in store: StructStore) -> Bool {
        if let hashed {
            guard let item = store.find(id) else { return false }
            return hashed.contains(ObjectIdentifier(item))
        }
        for entry in list {
            let holds = entry._withUnsafeGuaranteedRef { item in
                item.id.client == id.client && item.id.clock <= id.clock && id.clock < item.id.clock + item.length
            }
            if holds { return true }
        }
        return false
    }
}
