/// One step of a transaction: a dispatch to one store, run in one page.
public struct TransactionStep: Sendable, Equatable, CustomStringConvertible {
    /// 1 for the unit's first step, in the order the steps were sent.
    public var index: Int
    public var store: String
    public var action: String
    /// The page the step's `dispatch_action` went to (the store's authoritative page then).
    public var pageID: String

    public init(index: Int, store: String, action: String, pageID: String) {
        self.index = index
        self.store = store
        self.action = action
        self.pageID = pageID
    }

    public var description: String { "step \(index) (\(store).\(action) in page \(pageID))" }
}
