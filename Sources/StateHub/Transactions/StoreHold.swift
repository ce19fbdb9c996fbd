import JSEngine

/// A store held by a transaction: observers see `saved` until the hold is released, and the
/// changes made meanwhile wait here (docs/transactions.md, "Observers never see…").
struct StoreHold {
    let transaction: Int
    let saved: JSONValue
    let savedVersion: Int
    var changes: [StoreChange] = []
}
