import JSEngine

/// Why a dispatch, or another request to the hub, failed.
public enum StateHubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No attached page hosts a store with this id.
    case unknownStore(String)
    /// The store has no action with this name.
    case unknownAction(store: String, action: String)
    /// The action threw synchronously or its promise rejected.
    case actionThrew(store: String, action: String, ActionFailure)
    /// The page hosting the store went away (closed, or detached) before answering.
    case engineGone(store: String, pageID: String)
    /// The store was disposed (`$dispose()`) before answering.
    case storeDisposed(store: String, pageID: String)
    /// No answer within the time limit.
    case timeout(store: String, action: String, after: Duration)
    /// The page answered with something the hub could not read.
    case badReply(store: String, reason: String)
    /// The action's result did not decode as the type asked for.
    case resultDecoding(store: String, action: String, reason: String)
    /// A page with this id is already attached.
    case pageAlreadyAttached(String)
    /// The page stopped the action because it ran past the page's time limit (a runaway
    /// loop, say). The page itself is fine: later dispatches work. `reason` is the
    /// engine's own wording, with the file and line when the engine knows them.
    case stopped(store: String, action: String, pageID: String, reason: String)
    /// The action ran, but the hub had to discard writes the page made while it ran (the
    /// page was being re-synchronised: docs/PROTOCOL.md A.7): its effects may be missing
    /// from the mirror and, once the page applies its resync, from the page too. Nothing
    /// was kept half-way; retrying is safe.
    case writesDiscarded(store: String, action: String, pageID: String)
    /// A native write (``GlobalStateHub/write(store:ops:type:)``) did not apply to the mirror
    /// (an operation's path does not exist, or it nests past the depth cap); nothing changed.
    case nativeWriteRefused(store: String, reason: String)

    public var description: String {
        switch self {
        case .unknownStore(let store): "unknown store \"\(store)\": no attached page hosts it"
        case .unknownAction(let store, let action): "store \"\(store)\" has no action \"\(action)\""
        case .actionThrew(let store, let action, let failure): "\(store).\(action) threw \(failure.name): \(failure.message)"
        case .engineGone(let store, let page): "page \(page) hosting store \"\(store)\" went away"
        case .storeDisposed(let store, let page): "store \"\(store)\" was disposed in page \(page)"
        case .timeout(let store, let action, let after): "\(store).\(action) did not answer within \(after)"
        case .badReply(let store, let reason): "unreadable answer from store \"\(store)\": \(reason)"
        case .resultDecoding(let store, let action, let reason): "result of \(store).\(action) did not decode: \(reason)"
        case .pageAlreadyAttached(let page): "a page with id \(page) is already attached"
        case .stopped(let store, let action, let page, let reason): "\(store).\(action) was stopped by page \(page): \(reason)"
        case .writesDiscarded(let store, let action, let page): "\(store).\(action) ran in page \(page) while it was being re-synchronised: its writes were discarded"
        case .nativeWriteRefused(let store, let reason): "native write to store \"\(store)\" refused: \(reason)"
        }
    }
}
