import Dispatch
import JSEngine
import Synchronization
import Trace

/// Mirrors the Pinia stores of every attached page and runs their actions from Swift.
///
/// The web store is the single source of truth: native code never writes a mirror; it
/// dispatches actions (`dispatch(store:action:args:)`), and every change flows back through
/// the sync plugin and the protocol of docs/PROTOCOL.md part A.
///
/// - Pages: attach any `PageTransport` (a `JavaScriptEngine`, a web view adapter). The hub
///   listens on the page's `nativeBridge` channel and answers through
///   `nativeBridge.dispatch`.
/// - Mirrors: one per store id, a `JSONValue` tree in JavaScript's key order, updated in
///   place as operations arrive. On a sequence gap or an operation that does not apply the
///   hub asks the page for a full `sync_state` rather than drift.
/// - Several pages hosting one store id stay in sync through the hub: the first page to
///   register the id is authoritative (its state becomes the mirror; dispatches go to it);
///   later pages are hydrated from the mirror, and operations from any page are forwarded
///   to the others, which apply them without echoing them back.
/// - Observation: `changes(of:)` (an `AsyncSequence`), `observe(store:)` for SwiftUI
///   (Observation framework), `mirror(_:store:)` for a `Codable` view of a store.
///
/// Messages are handled on the page's own thread, under one lock, with no hop: applying an
/// operation costs O(depth of its path). Observers are told afterwards, off the lock;
/// main-actor observers are coalesced to at most one pending update per store.
public final class GlobalStateHub: Sendable {
    /// How a hub behaves. Every field has a default.
    public struct Configuration: Sendable {
        /// Messages longer than this many UTF-8 bytes are refused unread (docs/PROTOCOL.md A.8).
        public var maximumMessageBytes: Int
        /// Time limit for `dispatch` when none is given.
        public var dispatchTimeout: Duration
        /// Where every message in and out is recorded, if anywhere.
        public var trace: TraceRecorder?
        /// Changes buffered per `changes(of:)` subscriber before the oldest are dropped.
        public var changeBufferLimit: Int
        /// Problems kept in `problems` (the newest).
        public var problemLimit: Int
        /// Told of every problem, off the hub's lock.
        public var onProblem: (@Sendable (HubProblem) -> Void)?
        /// The clock every deadline and timeout of the hub follows (dispatch timeouts).
        /// Tests pass swift-clocks' `TestClock` and advance it instead of sleeping.
        public var clock: any Clock<Duration>
        /// The most a page may hold of an unfinished chunk transfer, in UTF-8 bytes (512 MiB);
        /// a transfer going over it is dropped and the page is told (docs/PROTOCOL.md A.11).
        public var maximumTransferBytes: Int = 512 << 20
        /// How long `dispatch` spins on its caller's thread for the answer before parking the
        /// task, when the page is in this process and the caller is not on the page's thread
        /// (`PageTransport.callerMaySpin`). An answer caught spinning saves waking the
        /// caller's thread (20–40 µs on a VM); spins that keep missing are switched off for a
        /// while (docs/hub.md, "Dispatch: how a caller waits"). `.zero`: park at once.
        public var dispatchSpin: Duration = .microseconds(50)

        public init(
            maximumMessageBytes: Int = 8 << 20,
            dispatchTimeout: Duration = .seconds(30),
            trace: TraceRecorder? = nil,
            changeBufferLimit: Int = 256,
            problemLimit: Int = 1_000,
            onProblem: (@Sendable (HubProblem) -> Void)? = nil,
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.maximumMessageBytes = maximumMessageBytes
            self.dispatchTimeout = dispatchTimeout
            self.trace = trace
            self.changeBufferLimit = changeBufferLimit
            self.problemLimit = problemLimit
            self.onProblem = onProblem
            self.clock = clock
        }
    }

    /// The channel pages post store messages on, and the page function the hub calls.
    public static let channel = "nativeBridge"
    static let dispatchFunction = "nativeBridge.dispatch"

    public let configuration: Configuration
    let state = Mutex(HubState())
    let observers = ObserverRegistry()
    let clock: HubClock
    /// Messages arriving in chunks, per page and transfer (docs/PROTOCOL.md A.11).
    let chunks: ChunkAssembler
    /// Whether dispatch callers spin for their answers (`DispatchSpinPolicy`).
    let spinPolicy = DispatchSpinPolicy()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.chunks = ChunkAssembler(maximumBytes: configuration.maximumTransferBytes)
        self.clock = HubClock(configuration.clock)
    }

    // MARK: Pages

    /// Starts mirroring the stores of `page`.
    ///
    /// Stores the page creates afterwards announce themselves (`sync_state` `created`);
    /// load the page's scripts after attaching, or call `requestSync(store:)` for stores
    /// created before.
    ///
    /// - Throws: `StateHubError.pageAlreadyAttached` for a second page with the same id;
    ///   whatever the transport throws while installing its receiver.
    public func attach(_ page: any PageTransport) async throws {
        let pageID = page.pageID
        let inserted = state.withLock { state -> Bool in
            guard state.pages[pageID] == nil else { return false }
            state.pages[pageID] = AttachedPage(transport: page)
            return true
        }
        guard inserted else { throw StateHubError.pageAlreadyAttached(pageID) }
        do {
            // As bytes: the engine hands them over without making a `String`; a flush-sync write
            // reuses the receiver's buffers (docs/hub.md, "A flush-sync write").
            let receiver = PageReceiver(pageID: pageID)
            try await page.receiveMessageBytes(on: Self.channel) { [weak self] bytes in
                self?.receive(utf8: bytes, from: receiver)
            }
        } catch {
            _ = state.withLock { $0.pages.removeValue(forKey: pageID) }
            throw error
        }
        page.onClose { [weak self] in self?.detach(pageID: pageID) }
        // Stops of what native did not call (a script, a timer, a microtask it left, a turn
        // the limit cannot stop); a stopped call reaches that call's failure handler instead.
        page.onStop { [weak self] stop in
            guard stop.entry != .call || stop.kind == .unstoppable else { return }
            self?.pageStopped(pageID: pageID, stop: stop)
        }
    }

    /// Stops mirroring a page: its store registrations go (a store no other page hosts is
    /// removed), and its pending dispatches fail with `StateHubError.engineGone`.
    public func detach(pageID: String) {
        update { state -> [HubEffect] in
            guard state.pages.removeValue(forKey: pageID) != nil else { return [] }
            // A restore the page will never acknowledge (docs/transactions.md).
            var effects = settleRestores(of: pageID, why: .pageGone, in: &state)
            for storeId in Array(state.stores.keys) {
                effects += removeHost(pageID: pageID, storeId: storeId, failure: { .engineGone(store: storeId, pageID: pageID) }, in: &state)
            }
            return effects
        }
    }

    /// The ids of the attached pages.
    public var pageIDs: [String] { state.withLock { Array($0.pages.keys).sorted() } }

    // MARK: Reading mirrors

    /// The mirrored state of a store, or `nil` when no page hosts it. While a transaction
    /// holds the store, its state before the transaction (docs/transactions.md).
    ///
    /// - Complexity: O(1): the tree is shared, not copied.
    public func state(of storeId: String) -> JSONValue? {
        state.withLock { $0.stores[storeId]?.visibleState }
    }

    /// The ids of every mirrored store, sorted.
    public var storeIDs: [String] { state.withLock { Array($0.stores.keys).sorted() } }

    /// The version of a store's mirror: it grows by one with every change. While a
    /// transaction holds the store, the version before the transaction.
    public func version(of storeId: String) -> Int? {
        state.withLock { $0.stores[storeId]?.visibleVersion }
    }

    /// The pages hosting a store, authoritative first, then in the order they registered.
    public func hosts(of storeId: String) -> [String] {
        // `hosts` is kept in that order (a HubState invariant): the first is authoritative.
        state.withLock { $0.stores[storeId]?.hosts.map(\.pageID) ?? [] }
    }

    /// Whether the mirror of `storeId` can be trusted now (docs/hub.md, "Mirror status"):
    /// `stale` if the hub gave up waiting for a page's whole state, `resyncing` while it waits
    /// for one (or for a joining page's acknowledgement), `current` otherwise; `nil` when no
    /// page hosts the store.
    public func mirrorStatus(of storeId: String) -> MirrorStatus? {
        state.withLock { $0.stores[storeId]?.mirrorStatus }
    }

    /// Problems noticed so far, oldest first (the newest `problemLimit`).
    public var problems: [HubProblem] { state.withLock { Array($0.problems) } }

    /// Asks every page hosting `storeId` for a full `sync_state`.
    public func requestSync(store storeId: String, reason: String = "manual") {
        update { state -> [HubEffect] in
            guard let entry = state.stores[storeId] else { return [] }
            return entry.hosts.compactMap { host in
                requestSyncEffect(pageID: host.pageID, storeId: storeId, reason: reason, detail: "requested by native", in: &state)
            }
        }
    }

    // MARK: Effects

    /// Changes the hub's state under its lock, then carries out what the change decided.
    ///
    /// Sends to pages and change-stream elements go out *under* the lock, in the order they
    /// were decided: two pages posting at once must not reorder what a third page receives
    /// (the ordering rules of docs/PROTOCOL.md A.7 rest on it), nor the versions a
    /// subscriber sees. Both only enqueue (`PageTransport.send` returns at once and never
    /// calls back synchronously; `yield` never blocks). Everything else — resuming
    /// dispatches, telling `onProblem`, scheduling observers — runs after the lock is released.
    func update(_ body: (inout HubState) -> [HubEffect]) {
        let deferred = state.withLock { state -> [HubEffect] in
            var deferred: [HubEffect] = []
            for effect in body(&state) {
                switch effect {
                case .send(let transport, let text, let failure):
                    transport.send(text, toFunction: Self.dispatchFunction, onFailure: failure)
                case .change(let subscribers, let change):
                    for subscriber in subscribers { subscriber.yield(change) }
                default:
                    deferred.append(effect)
                }
            }
            return deferred
        }
        perform(deferred)
    }

    /// The effects `update` leaves for after the lock.
    private func perform(_ effects: [HubEffect]) {
        for effect in effects {
            switch effect {
            case .send, .change:
                break // delivered under the lock, in order, by `update`
            case .resume(let sink, let result):
                sink.deliver(result)
            case .problem(let problem):
                configuration.onProblem?(problem)
            case .scheduleObservers(let storeId):
                scheduleObserverUpdate(storeId)
            case .release(let box):
                Self.release(box)
            }
        }
    }

    /// Frees a replaced mirror tree. A large one (a thousand members or more at its top two
    /// levels) is freed on a utility queue, so the page that sent the new state does not wait
    /// while thousands of nodes are freed; a small one here. Only the box holds the tree, so it
    /// is freed where `free()` runs, whichever thread drops the box last.
    static func release(_ box: ReleasedTree) {
        guard box.isLarge else { return box.free() }
        DispatchQueue.global(qos: .utility).async { box.free() }
    }

    /// Records an outgoing message in the trace and returns the effect that sends it.
    func sendEffect(to pageID: String, storeId: String?, type: StoreMessageType, payload: JSONValue, in state: inout HubState,
                    failure: (@Sendable (any Error) -> Void)? = nil, messageId: String? = nil) -> HubEffect? {
        guard state.pages[pageID] != nil else { return nil }
        let text = OutgoingMessage.text(type: type, storeId: storeId, messageId: messageId ?? state.nextMessageId(), payload: payload)
        return sendEffect(to: pageID, storeId: storeId, type: type, text: text, in: &state, failure: failure)
    }

    /// `sendEffect` with the message's text already written (a dispatch writes its own: `OutgoingMessage.dispatchText`).
    func sendEffect(to pageID: String, storeId: String?, type: StoreMessageType, text: String, in state: inout HubState,
                    failure: (@Sendable (any Error) -> Void)? = nil) -> HubEffect? {
        guard let page = state.pages[pageID] else { return nil }
        // A call the time limit stopped (a subscriber looping on a forwarded write, say) is
        // recorded like any stop, even when the sender waits for nothing.
        let failure = failure ?? { [weak self] error in
            if let stop = (error as? EngineError)?.stop { self?.pageStopped(pageID: pageID, stop: stop, storeId: storeId) }
        }
        configuration.trace?.record(.nativeToWeb, channel: TraceChannel.nativeBridge, engine: pageID, store: storeId, type: type.rawValue, message: text)
        return .send(page.transport, text, failure: failure)
    }

    func requestSyncEffect(pageID: String, storeId: String, reason: String, detail: String, in state: inout HubState) -> HubEffect? {
        if let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }) {
            state.stores[storeId]?.hosts[index].awaitingSync = true
        }
        return sendEffect(to: pageID, storeId: storeId, type: .requestSync,
                          payload: ["reason": .string(reason), "detail": .string(detail)], in: &state)
    }

    func problemEffect(_ problem: HubProblem, in state: inout HubState) -> HubEffect {
        if state.problems.count >= configuration.problemLimit { state.problems.removeFirst() } // O(1): a Deque
        state.problems.append(problem)
        for subscriber in state.problemSubscribers.values { subscriber.yield(problem) }
        return .problem(problem)
    }

    /// Removes one page's registration for a store, failing its pending dispatches for it.
    func removeHost(pageID: String, storeId: String, failure: @escaping () -> StateHubError, in state: inout HubState) -> [HubEffect] {
        // A restore of this store the page will never acknowledge (docs/transactions.md, "When the
        // acknowledgement does not come"); a page gone had its restores settled by `detach`.
        var effects = settleRestores(of: pageID, store: storeId, why: state.pages[pageID] == nil ? .pageGone : .storeGone, in: &state)
        for (id, pending) in state.pending where pending.pageID == pageID && pending.storeId == storeId {
            state.pending.removeValue(forKey: id)
            effects.append(.resume(pending.continuation, .failure(failure())))
        }
        guard var entry = state.stores[storeId], let index = entry.hosts.firstIndex(where: { $0.pageID == pageID }) else { return effects }
        if let hold = entry.hold {
            // A touched store lost a page: the unit cannot hold (docs/transactions.md).
            let reason: TransactionError.Reason = state.pages[pageID] == nil
                ? .pageGone(store: storeId, pageID: pageID) : .storeGone(store: storeId, pageID: pageID)
            interruptTransaction(hold.transaction, reason, in: &state)
        }
        entry.hosts.remove(at: index)
        if entry.hosts.isEmpty {
            state.stores.removeValue(forKey: storeId)
            effects += changeEffects(StoreChange(storeId: storeId, version: entry.version + 1, kind: .removed, state: nil), in: &state)
        } else {
            state.stores[storeId] = entry
        }
        return effects
    }
}
