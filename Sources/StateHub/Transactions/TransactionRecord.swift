import JSEngine

/// What the hub keeps of one running transaction, under its lock (docs/transactions.md).
struct TransactionRecord {
    /// The stores the unit touched, in touch order, with what a restore needs.
    var touched: [TouchedStore] = []
    /// Each step's `dispatch_action` messageId: the `dispatch` tags of the unit's own writes.
    var steps: [String: TransactionStep] = [:]
    var stepCount = 0
    var lastStep: TransactionStep?
    /// The first failure (a step's, an interruption, the timeout): the unit's error.
    var failure: TransactionError?
    /// No step may start any more: the unit is committing, restoring, or timed out.
    var closed = false
    /// Restore hydrations not yet acknowledged: their messageIds.
    var awaitedRestores: Set<String> = []
    /// Resumed when the last awaited restore settles.
    var restoreWaiter: CheckedContinuation<JSONValue, any Error>?
    /// Touched stores that could not be put back.
    var unrestored: [TransactionError.Unrestored] = []

    /// The step a failure concerns when no step failed itself: one still pending (`pending`
    /// holds the hub's pending dispatches), else the last one started.
    func currentStep(pending: [String: PendingDispatch]) -> TransactionStep? {
        steps.filter { pending[$0.key] != nil }.values.min { $0.index < $1.index } ?? lastStep
    }
}

/// A store as a transaction found it at its first touch.
struct TouchedStore {
    let storeId: String
    let saved: JSONValue
    /// The pages hosting the store at the touch.
    let pageIDs: [String]
}

/// A restore hydration sent to a page and not yet acknowledged.
struct AwaitedRestore {
    let transaction: Int
    let storeId: String
    let pageID: String
}
