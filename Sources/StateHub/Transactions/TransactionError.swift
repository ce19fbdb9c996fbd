/// Why a transaction did not take effect (docs/transactions.md, "Errors").
///
/// When `GlobalStateHub.transaction(timeout:_:)` throws one, every touched store the error does
/// not list in ``unrestored`` is back at its state before the unit, in its mirror and in its
/// pages.
public struct TransactionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// A step's dispatch failed: the action threw, the store or action is unknown, its
        /// writes were discarded… (a step's failure aborts the unit even if the body catches it).
        case stepFailed(StateHubError)
        /// The body threw an error that is not one of the unit's (its description).
        case bodyThrew(String)
        /// A touched store changed from outside the unit: page code wrote it (`pageID`), or
        /// native code did (`pageID` is `nil`); `detail` says what was seen.
        case concurrentWrite(store: String, pageID: String?, detail: String)
        /// A page hosting a touched store closed or was detached during the unit.
        case pageGone(store: String, pageID: String)
        /// A touched store was disposed (`$dispose()`) in a page during the unit.
        case storeGone(store: String, pageID: String)
        /// The unit ran past its timeout.
        case timedOut(after: Duration)
        /// Another unit holds the store; nothing waits (docs/transactions.md).
        case storeBusy(store: String)
        /// The store's mirror is not `current` (waiting for a page's whole state, or stale):
        /// its saved state would not be the page's.
        case storeNotCurrent(store: String, status: MirrorStatus)
        /// The transaction's handle was used after its unit ended.
        case closed
        /// The task running `transaction` was cancelled: the body's next step throws this
        /// instead of being sent, and the unit aborts (a step already sent is still awaited).
        case cancelled
    }

    /// A touched store that could not be put back in one page.
    public struct Unrestored: Sendable, Equatable, CustomStringConvertible {
        public enum Why: String, Sendable, Equatable {
            /// The page went away (its store with it).
            case pageGone
            /// The store was disposed in the page, or replaced by a new instance.
            case storeGone
            /// The page did not acknowledge the restore in time; it stays joining (its writes are
            /// dropped) until it does, and the mirror keeps the saved state.
            case notAcknowledged
        }

        public var store: String
        public var pageID: String
        public var why: Why

        public init(store: String, pageID: String, why: Why) {
            self.store = store
            self.pageID = pageID
            self.why = why
        }

        public var description: String { "store \"\(store)\" in page \(pageID): \(why.rawValue)" }
    }

    public var reason: Reason
    /// The step concerned: the failing or pending one, else the last one started; `nil` before
    /// the first step.
    public var step: TransactionStep?
    /// Touched stores that could not be restored, per page.
    public var unrestored: [Unrestored]

    public init(reason: Reason, step: TransactionStep?, unrestored: [Unrestored] = []) {
        self.reason = reason
        self.step = step
        self.unrestored = unrestored
    }

    public var description: String {
        var text: String
        switch reason {
        case .stepFailed(let error): text = "transaction step failed: \(error)"
        case .bodyThrew(let error): text = "transaction body threw: \(error)"
        case .concurrentWrite(let store, let page, let detail):
            text = "store \"\(store)\" was written outside the transaction\(page.map { " by page \($0)" } ?? " by native code"): \(detail)"
        case .pageGone(let store, let page): text = "page \(page) hosting store \"\(store)\" went away during the transaction"
        case .storeGone(let store, let page): text = "store \"\(store)\" was disposed in page \(page) during the transaction"
        case .timedOut(let after): text = "transaction did not finish within \(after)"
        case .storeBusy(let store): text = "store \"\(store)\" is held by another transaction"
        case .storeNotCurrent(let store, let status): text = "store \"\(store)\" cannot join a transaction while its mirror is \(status)"
        case .closed: text = "transaction already ended"
        case .cancelled: text = "the task running the transaction was cancelled"
        }
        if let step { text += "; at \(step)" }
        if !unrestored.isEmpty { text += "; not restored: " + unrestored.map(\.description).joined(separator: ", ") }
        return text
    }
}
