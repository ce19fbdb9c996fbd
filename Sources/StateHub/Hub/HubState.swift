import DequeModule
import JSEngine

/// Everything the hub knows, guarded by one lock in `GlobalStateHub`.
///
/// Invariants:
/// - every `StoreEntry` has at least one host; a store whose last host leaves is removed;
/// - `hosts` is in registration order and its first host is authoritative;
/// - a pending dispatch names a page that is attached;
/// - a store's `hold` names a transaction in `transactions` (docs/transactions.md).
struct HubState {
    var pages: [String: AttachedPage] = [:]
    var stores: [String: StoreEntry] = [:]
    var pending: [String: PendingDispatch] = [:]
    var nextMessageNumber = 1
    var problems: Deque<HubProblem> = []
    /// `problemStream()` subscribers, told of each problem as it is recorded.
    var problemSubscribers: [Int: AsyncStream<HubProblem>.Continuation] = [:]
    var changeSubscribers: [String: [Int: AsyncStream<StoreChange>.Continuation]] = [:]
    var nextSubscriberID = 0
    /// Stores whose main-actor observers have an update scheduled (coalescing).
    var observerUpdateScheduled: Set<String> = []
    /// The task failing dispatches past their deadline, and the deadline it sleeps until.
    var timeoutSweeper: (task: Task<Void, Never>, wakesAt: Duration)?
    /// Running transactions by id (docs/transactions.md).
    var transactions: [Int: TransactionRecord] = [:]
    var nextTransactionID = 1
    /// Restore hydrations awaiting their `hydrated` acknowledgement, by messageId.
    var awaitedRestores: [String: AwaitedRestore] = [:]

    mutating func nextMessageId() -> String {
        defer { nextMessageNumber += 1 }
        return "n-\(nextMessageNumber)"
    }
}

struct AttachedPage {
    let transport: any PageTransport
}

/// One store id's mirror and the pages hosting it.
struct StoreEntry {
    var state: JSONValue
    /// The store's getters by name, as its pages last sent them (docs/PROTOCOL.md A.13).
    var getters: JSONValue.ObjectMembers = [:]
    var version = 0
    /// `null`s of padding operations added since the last whole state (docs/PROTOCOL.md A.8.2).
    var padding = 0
    var hosts: [StoreHost]
    /// Set while a transaction holds the store: observers see the saved state meanwhile.
    var hold: StoreHold?

    /// The page dispatches go to: the earliest registered that still hosts the store.
    var authoritative: StoreHost? { hosts.first }
    /// What readers and observers outside a transaction see: the state saved when a
    /// transaction first touched the store, until it ends (docs/transactions.md).
    var visibleState: JSONValue { hold?.saved ?? state }
    var visibleVersion: Int { hold?.savedVersion ?? version }
    /// `GlobalStateHub.mirrorStatus(of:)` of this store.
    var mirrorStatus: MirrorStatus {
        if let reason = hosts.lazy.compactMap(\.stale).first { return .stale(reason: reason) }
        return hosts.contains { $0.awaitingSync || $0.joining } ? .resyncing : .current
    }
}

/// One page hosting a store.
struct StoreHost {
    let pageID: String
    /// The `seq` the next message from this page about this store must carry.
    var expectedSeq: Int
    /// A resync was requested: mutations are discarded until a `sync_state` arrives.
    var awaitingSync = false
    /// Hydrated from the mirror and not yet acknowledged: its mutations are dropped (the
    /// hydration overwrites them in the page) until a `sync_state` `hydrated` whose `ack`
    /// is `lastHydration` arrives (docs/PROTOCOL.md A.7).
    var joining = false
    /// The `messageId` of the last `sync_state` or `apply_mutation` the hub sent this page.
    var lastSent: String?
    /// The `messageId` of the last hydration the hub sent this page.
    var lastHydration: String?
    /// Resync requests sent again because a stop may have cut the answer short, since the
    /// last `sync_state` from this page (docs/PROTOCOL.md A.5.9, reason `stopped`).
    var stoppedResyncs = 0
    /// Set when the hub gave up waiting for this page's answer: why (`MirrorStatus.stale`).
    var stale: String?
}

/// A dispatch waiting for its `action_result`.
struct PendingDispatch {
    let storeId: String
    let action: String
    let pageID: String
    /// By the hub's clock (`HubClock`: time since the hub was created).
    var deadline: Duration
    /// The latest the deadline may be moved to while the page keeps running a script.
    var waitsAtMost: Duration?
    let timeout: Duration
    /// Where the answer goes (the caller may be spinning for it or parked: `DispatchReply`).
    let continuation: DispatchReply
    /// Writes of this dispatch were dropped (a message tagged with its `dispatch` arrived
    /// while its page was joining or awaiting a resync, or a transfer of its store from its
    /// page was refused): an `ok` result must not report them kept, so the dispatch fails
    /// with `writesDiscarded` (docs/PROTOCOL.md A.7). Kept on the dispatch itself so a drop
    /// is charged to the action that wrote, never to a later one.
    var writesDiscarded = false
}

/// Work decided under the lock. Sends and change-stream elements are delivered while the
/// lock is still held, in decision order (both only enqueue; see `GlobalStateHub.update`);
/// resumes, `onProblem` and observer scheduling run after it is released.
enum HubEffect {
    case send(any PageTransport, String, failure: (@Sendable (any Error) -> Void)?)
    case resume(any AnswerSink, Result<JSONValue, any Error>)
    case problem(HubProblem)
    case change([AsyncStream<StoreChange>.Continuation], StoreChange)
    case scheduleObservers(String)
    /// A mirror tree a whole state replaced: freed on another thread when large.
    case release(ReleasedTree)
}

/// What a `HubEffect.resume` answers: a dispatch's `DispatchReply`, or a plain continuation
/// (a transaction's restore waiter).
protocol AnswerSink: Sendable {
    func deliver(_ result: Result<JSONValue, any Error>)
}

extension DispatchReply: AnswerSink {
    func deliver(_ result: Result<JSONValue, any Error>) { resume(with: result) }
}

extension CheckedContinuation: AnswerSink where T == JSONValue, E == any Error {
    func deliver(_ result: Result<JSONValue, any Error>) { resume(with: result) }
}

extension Dictionary {
    /// Runs `body` on the value at `index` in the dictionary's own storage. The getters
    /// (`self[key]`, `values[index]`) return a copy of the whole value, a retain and a release
    /// per reference it holds; reading two fields of a `StoreEntry` through this costs none.
    @inline(__always)
    mutating func inPlace<Result>(at index: Index, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try body(&values[index])
    }
}
