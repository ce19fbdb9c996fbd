/// A Yjs-compatible document: named root types, the struct store, pending updates.
///
/// Not thread-safe: use one document from one isolation domain (an actor, a task, a queue).
public final class SharedDocument {
    /// This replica's client id (random 32-bit, as Yjs's); local edits are made under it.
    public private(set) var clientID: Int
    /// Whether deleted content is garbage-collected at the end of each transaction.
    public var gc: Bool

    @exclusivity(unchecked) var store = StructStore()
    var share: [String: SharedType] = [:]
    /// Root names in the order they were first named (Yjs's `share` map order).
    var shareOrder: [String] = []
    /// Structs waiting for dependencies, as a v1 update, with the lowest missing clock per client.
    var pendingStructs: (missing: [Int: Int], update: [UInt8])?
    /// Deletes of ranges not yet received.
    var pendingDeletes = PendingDeletes()
    /// Items the conflict scans of integration visited so far: tests compare it with what they
    /// applied, so a scan that grows with a list shows whatever the machine's load.
    @exclusivity(unchecked) var itemsScanned = 0
    @exclusivity(unchecked) var currentTransaction: Transaction?
    @exclusivity(unchecked) var markerClock = 0
    var deepObservers: [(id: Int, callback: (ChangeSet) -> Void)] = []
    var updateObservers: [(id: Int, callback: (_ update: [UInt8], _ transaction: Transaction) -> Void)] = []
    var nextObserverID = 0

    /// - Parameter clientID: a fixed client id (tests, replays); random when nil.
    public init(clientID: Int? = nil, gc: Bool = true) {
        self.clientID = clientID ?? Int(UInt32.random(in: 0...UInt32.max))
        self.gc = gc
    }

    deinit {
        // A map's entries (and its keys' first items) are the only strong links between items (type → entry item →
        // its nested type → …): released through them, a chain nested 100,000 deep would
        // recurse once per level and overflow the stack. Every item is owned by the store,
        // so emptying the maps first leaves the store to release items one at a time.
        for name in shareOrder {
            share[name]?.map = [:]
            share[name]?.keyStarts = [:]
        }
        for slot in store.lists.indices {
            for item in store.lists[slot] {
                if case .type(let type) = item.content {
                    type.map = [:]
                    type.keyStarts = [:]
                }
            }
        }
    }

    /// The root type named `name`, created with `kind` if missing; an unknown root (seen only in
    /// an update) takes `kind`.
    func root(_ name: String, kind: SharedTypeKind) throws(SharedDocumentError) -> SharedType {
        if let existing = share[name] {
            if existing.kind == .unknown, kind != .unknown {
                existing.setKind(kind)
            } else if existing.kind != kind, kind != .unknown {
                throw SharedDocumentError(.kindMismatch(name: name, existing: existing.kind.description, requested: kind.description))
            }
            return existing
        }
        let type = SharedType(kind: kind)
        type.rootName = name
        type.document = self
        share[name] = type
        shareOrder.append(name)
        return type
    }

    /// The root map `name` (Yjs `getMap`).
    public func map(_ name: String) throws(SharedDocumentError) -> YMap { YMap(type: try root(name, kind: .map), document: self) }
    /// The root array `name` (Yjs `getArray`).
    public func array(_ name: String) throws(SharedDocumentError) -> YArray { YArray(type: try root(name, kind: .array), document: self) }
    /// The root text `name` (Yjs `getText`).
    public func text(_ name: String) throws(SharedDocumentError) -> YText { YText(type: try root(name, kind: .text), document: self) }

    /// Root names and their kinds, in the order they were first named.
    public var roots: [(name: String, kind: SharedTypeKind)] {
        shareOrder.compactMap { name in share[name].map { (name, $0.kind) } }
    }

    /// Gives every root of unknown kind the kind its content shows: keyed items → map,
    /// string content → text, otherwise array (what `statehub doc` does).
    public func inferRootKinds() {
        for name in shareOrder {
            guard let type = share[name], type.kind == .unknown else { continue }
            if !type.map.isEmpty {
                type.setKind(.map)
                continue
            }
            var node = type.start
            var kind = SharedTypeKind.array
            while let item = node {
                if case .string = item.content { kind = .text; break }
                if case .format = item.content { kind = .text; break }
                if case .embed = item.content { kind = .text; break }
                node = item.right
            }
            type.setKind(kind)
        }
    }

    /// Runs `body` in one transaction (nested calls join the outer one).
    public func transact<T>(origin: (any Hashable & Sendable)? = nil, _ body: (Transaction) throws -> T) rethrows -> T {
        try transact(origin: origin, local: true, body)
    }

    func transact<T>(origin: (any Hashable & Sendable)?, local: Bool, _ body: (Transaction) throws -> T) rethrows -> T {
        if let current = currentTransaction { return try body(current) }
        store.beginTransaction()
        let transaction = Transaction(origin: origin, local: local, document: self)
        currentTransaction = transaction
        defer {
            currentTransaction = nil
            transaction.endBody()
            cleanup(transaction)
        }
        return try body(transaction)
    }

    /// Client → next clock for every client this document has structs from.
    public var stateVector: [Int: Int] { store.stateVector }
}
