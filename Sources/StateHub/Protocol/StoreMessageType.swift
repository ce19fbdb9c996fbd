/// The `type` of a store-sync message (docs/PROTOCOL.md A.1).
public enum StoreMessageType: String, Sendable, CaseIterable {
    case syncState = "sync_state"
    case applyMutation = "apply_mutation"
    case actionResult = "action_result"
    case storeDisposed = "store_disposed"
    case error
    case dispatchAction = "dispatch_action"
    case requestSync = "request_sync"
}
