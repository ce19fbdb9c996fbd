/// What `statehub types` generates for each store conforms to this: the store's id, the hub it is
/// reached through and, for a facade made from a ``HubTransaction``, the unit its actions run in
/// (docs/types.md, "The facade"). The generated type declares only its typed actions and `State`;
/// the rest is here, written once.
///
/// ```swift
/// let cart = CartStore(hub: hub)
/// try await cart.add(.init(id: "A1", name: "Mug", price: 9.5))
/// let state = try cart.state()               // CartState?
///
/// try await hub.transaction { tx in          // both steps, or neither
///     try await CartStore(tx).remove("A1")
///     try await WishlistStore(tx).add("A1")
/// }
/// ```
public protocol StoreFacade: Sendable {
    /// The generated type the mirror decodes as.
    associatedtype State: Decodable
    /// The store's id on the hub.
    static var id: String { get }
    /// The hub the store is mirrored by.
    var hub: GlobalStateHub { get }
    /// The unit the actions run in as steps (docs/transactions.md); `nil`: plain dispatches.
    var transaction: HubTransaction? { get }

    init(hub: GlobalStateHub, transaction: HubTransaction?)
}

extension StoreFacade {
    /// Actions dispatched through `hub`, one by one.
    public init(hub: GlobalStateHub) {
        self.init(hub: hub, transaction: nil)
    }

    /// Runs the actions as steps of `transaction`; ``state()`` reads its live mirror.
    public init(_ transaction: HubTransaction) {
        self.init(hub: transaction.hub, transaction: transaction)
    }

    /// The mirror decoded as ``State``, or `nil` while the hub has none.
    ///
    /// - Throws: a `DecodingError` naming the path when the mirror no longer fits the type.
    public func state() throws -> State? {
        let mirror = transaction.map { $0.state(of: Self.id) } ?? hub.state(of: Self.id)
        return try mirror.map { try $0.decodeMirror(State.self) }
    }

    /// Runs `action` with arguments as JSON: through the transaction when there is one, else the
    /// hub. The generated methods call this with their encoded arguments; it is also the way to an
    /// action that was never observed.
    ///
    /// - Throws: the hub's `DispatchError`, or the transaction's ``TransactionError``.
    @discardableResult
    public func dispatch(_ action: String, _ args: [JSONValue]) async throws -> JSONValue {
        guard let transaction else { return try await hub.dispatch(store: Self.id, action: action, args: args) }
        return try await transaction.dispatch(store: Self.id, action: action, args: args)
    }
}
