/// A group of changes applied together; observers run once at its end.
public final class Transaction {
    /// What started it: the value given to `transact(origin:)` or `applyUpdate(_:origin:)`.
    public let origin: (any Hashable & Sendable)?
    /// True for local edits, false for applied updates.
    public let local: Bool
    /// The document while the transaction's body runs: its store tells what the body added.
    @exclusivity(unchecked) unowned(unsafe) private var document: SharedDocument?
    /// Client → state before the transaction, for the clients it added structs to; kept when
    /// its body ends (a transaction an observer starts then counts apart).
    @exclusivity(unchecked) private(set) var added: [Int: Int] = [:]
    @exclusivity(unchecked) var deleteSet = DeleteSet()
    /// Structs split or touched that may merge again at the end.
    @exclusivity(unchecked) var mergeStructs: [Item] = []
    /// Types changed: the keys changed (maps) and whether the list changed.
    @exclusivity(unchecked) var changed: [ObjectIdentifier: ChangedType] = [:]
    @exclusivity(unchecked) var changedOrder: [ObjectIdentifier] = []

    struct ChangedType {
        let type: SharedType
        var keys: [String] = []
        var list = false
    }

    init(origin: (any Hashable & Sendable)?, local: Bool, document: SharedDocument) {
        self.origin = origin
        self.local = local
        self.document = document
    }

    /// Keeps what the body added: called before the transaction's clean-up.
    func endBody() {
        guard let document else { return }
        added = document.store.grownClients
        self.document = nil
    }

    /// The state `client` had before the transaction, or nil if the transaction added no
    /// struct of it.
    func stateBefore(_ client: Int) -> Int? {
        if let document { return document.store.stateBeforeTransaction(of: client) }
        return added[client]
    }

    /// The type whose list change was recorded last (most integrations repeat it). An
    /// identifier, not a weak reference (a weak load per item cost more than the rest of this
    /// function): it is only set for a type `changed` retains, so it cannot name a reused address.
    @exclusivity(unchecked) private var lastListChange: ObjectIdentifier?

    /// Yjs's `addChangedTypeToTransaction`: only types that existed before and are alive.
    @inline(__always)
    func addChanged(_ type: SharedType, key: String?) {
        if key == nil && lastListChange == ObjectIdentifier(type) { return }
        addChangedSlowly(type, key: key)
    }

    private func addChangedSlowly(_ type: SharedType, key: String?) {
        if let item = type.item {
            guard !isNew(item.id), !item.deleted else { return }
        }
        let identifier = ObjectIdentifier(type)
        if changed[identifier] == nil {
            changed[identifier] = ChangedType(type: type)
            changedOrder.append(identifier)
        }
        if let key {
            if changed[identifier]?.keys.contains(key) == false { changed[identifier]?.keys.append(key) }
        } else {
            changed[identifier]?.list = true
            lastListChange = identifier
        }
    }

    /// Whether `id` was created in this transaction.
    func isNew(_ id: ID) -> Bool { stateBefore(id.client).map { id.clock >= $0 } ?? false }
}
