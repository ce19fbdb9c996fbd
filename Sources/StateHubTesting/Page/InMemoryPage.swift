import JSEngine
import Synchronization

/// A page that lives in memory: a `PageTransport` for tests of code built on the hub (or the
/// capability bridge) that need no JavaScript engine.
///
/// It records every message sent to it (``sent``, and ``nextSent()`` to wait for the next one
/// without sleeping), and lets the test post messages as the page would (``post(_:on:)``, or
/// the store-message helpers in `InMemoryPage+StoreMessages.swift`). A message posted is
/// delivered before `post` returns, on the caller's thread, as a real page delivers on its own.
///
/// ```swift
/// let hub = GlobalStateHub()
/// let page = InMemoryPage(pageID: "checkout")
/// try await hub.attach(page)
/// page.announce(store: "cart", state: ["items": []])
/// page.mutate(store: "cart", ops: [.set(path: [.key("items")], value: [["sku": "A1"]])])
/// expectMirror(of: hub, store: "cart", equals: ["items": [["sku": "A1"]]])
/// ```
public final class InMemoryPage: PageTransport {
    public let pageID: String

    private struct State {
        var receivers: [String: @Sendable (String) -> Void] = [:]
        var closeHandlers: [@Sendable () -> Void] = []
        var isClosed = false
        var sent: [SentMessage] = []
        /// Index in `sent` of the next message `nextSent()` hands out.
        var nextUnread = 0
        var waiters: [CheckedContinuation<SentMessage, Never>] = []
        var seq: [String: Int] = [:]
        var nextMessageNumber = 1
        var idleFor: Duration?
        var endsEveryScript = false
    }

    private let state = Mutex(State())

    public init(pageID: String = "page") {
        self.pageID = pageID
    }

    // MARK: PageTransport

    public func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {
        try state.withLock { state in
            if state.isClosed { throw PageTransportError.closed(pageID: pageID) }
            state.receivers[channel] = receiver
        }
    }

    public func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        let sent = SentMessage(text: message, function: functionPath)
        let outcome = state.withLock { state -> (waiter: CheckedContinuation<SentMessage, Never>?, closed: Bool) in
            if state.isClosed { return (nil, true) }
            state.sent.append(sent)
            guard !state.waiters.isEmpty else { return (nil, false) }
            state.nextUnread += 1
            return (state.waiters.removeFirst(), false)
        }
        if outcome.closed { onFailure?(PageTransportError.closed(pageID: pageID)) }
        outcome.waiter?.resume(returning: sent)
    }

    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.isClosed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// What the page says about its thread (`PageTransport.idleFor`): `nil` (the default)
    /// cannot tell, so dispatches to it end at their deadline; `.zero` is a page running a
    /// script, which the hub waits for past a deadline, up to ten timeouts in all.
    public var idleFor: Duration? {
        get { state.withLock { $0.idleFor } }
        set { state.withLock { $0.idleFor = newValue } }
    }

    /// What the page says about its host (`PageTransport.endsEveryScript`): `true` makes the
    /// hub wait for a running script (``idleFor`` `.zero`) past ten timeouts. `false` by default.
    public var endsEveryScript: Bool {
        get { state.withLock { $0.endsEveryScript } }
        set { state.withLock { $0.endsEveryScript = newValue } }
    }

    // MARK: For the test

    /// Every message sent to the page so far, oldest first.
    public var sent: [SentMessage] { state.withLock { $0.sent } }

    /// The next sent message not yet handed out by this method, waiting (without polling)
    /// until the page is sent one. Messages come out in the order they were sent.
    public func nextSent() async -> SentMessage {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> SentMessage? in
                if state.nextUnread < state.sent.count {
                    defer { state.nextUnread += 1 }
                    return state.sent[state.nextUnread]
                }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Posts `message` on `channel` as the page's script would; delivered before this returns.
    ///
    /// - Returns: false when nothing listens on that channel (nobody attached the page).
    @discardableResult
    public func post(_ message: String, on channel: String) -> Bool {
        guard let receiver = state.withLock({ $0.receivers[channel] }) else { return false }
        receiver(message)
        return true
    }

    /// Closes the page: later sends fail with `PageTransportError.closed`, close handlers run
    /// (the hub detaches the page).
    public func close() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            state.receivers = [:]
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }

    /// The next `seq` for `storeId` (1 for a store's first message), and a message id.
    func nextSequence(for storeId: String, restart: Bool) -> (seq: Int, messageId: String) {
        state.withLock { state in
            let seq = restart ? 1 : (state.seq[storeId] ?? 0) + 1
            state.seq[storeId] = seq
            defer { state.nextMessageNumber += 1 }
            return (seq, "w\(state.nextMessageNumber)")
        }
    }
}
