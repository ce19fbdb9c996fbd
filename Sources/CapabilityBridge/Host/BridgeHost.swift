import JSEngine
import Synchronization
import Trace

/// The native end of the capability bridge (docs/PROTOCOL.md B, docs/bridge.md).
///
/// Attaches to pages through `PageTransport` only (never a concrete engine), each page
/// with a ``MicroApp`` identity, its grants, and a ``Shell``. Calls arrive on the `bridge`
/// channel (B.1) or as legacy URLs (B.5); both go through the same pipeline:
///
/// 1. size cap → `payload_too_large`; 2. parse → `bad_payload`; 3. grants → `refused`;
/// 4. `gotoWebview` URL policy → `url_not_allowed`; 5. handler lookup, business layer
/// first, then framework → `unknown_action`; 6. payload decoding → `bad_payload` naming
/// the field; 7. the handler, under the native time limit → `timeout`; a thrown
/// ``BridgeError`` keeps its code, anything else → `handler_failed`.
///
/// Every request, reply, event and refused call is recorded in ``trace`` (channel
/// `bridge`). Replies are JSON texts built from `JSONValue` and handed to
/// `StateHubBridge.receive` as a string argument: nothing is pasted into source.
///
/// Thread-safety: all state sits behind one lock; the host is `Sendable` and may be used
/// from any thread. Synchronous handlers (``registerSync(_:payload:result:handler:)``) run
/// inline on the page's thread: no task, no hop. Async handlers start on the page's thread
/// with `Task.immediate` and run there until they first suspend; only then do they leave it
/// (and come back through the transport to answer).
public final class BridgeHost: Sendable {
    public let configuration: BridgeConfiguration
    /// Where bridge traffic is recorded, shared with the store hub for one timeline.
    public let trace: TraceRecorder?
    /// ``BridgeConfiguration/clock`` as durations since the host was made: quiet is measured on it.
    let quietClock: QuietClock

    struct State: Sendable {
        var pages: [String: AttachedPage] = [:]
        var business: [String: AnyBridgeHandler] = [:]
        var framework: [String: AnyBridgeHandler] = [:]
        /// TypeScript types named with `describe(_:payload:result:)`, by action.
        var described: [String: (payload: String?, result: String?)] = [:]
        var styleAcks: [String: (page: String, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var nextAck = 0
        /// The last of the chained page-channel tasks (``runInOrder(_:)``).
        var pageWork: Task<Void, Never>?
        /// Calls started and not yet answered.
        var inFlight = 0
        /// Grows with every message received and every answer; for ``waitUntilQuiet(quietPeriod:timeout:)``.
        var activity = 0
        /// When `activity` last grew (``QuietClock/now``).
        var lastActivityAt: Duration = .zero
        /// ``waitUntilQuiet(quietPeriod:timeout:)`` calls waiting for `activity` to grow.
        var activityWaiters: [CheckedContinuation<Void, Never>] = []
    }
    let state = Mutex(State())

    /// The redactor the examples and the CLI use: the value of every `token` key in
    /// bridge messages (the `getInitialData` reply) becomes `"[redacted]"`.
    public static let defaultTraceRedactor: Redactor =
        TraceRedactor.only(channel: TraceChannel.bridge, TraceRedactor.jsonKeys(["token"]))

    /// - Parameters:
    ///   - frameworkHandlers: installs the framework layer (``FrameworkAction``); turn off
    ///     only to test a bare host.
    public init(configuration: BridgeConfiguration = BridgeConfiguration(), trace: TraceRecorder? = nil,
                frameworkHandlers: Bool = true) {
        self.configuration = configuration
        self.trace = trace
        quietClock = QuietClock(configuration.clock)
        if frameworkHandlers { FrameworkHandlers.install(on: self) }
    }

    // MARK: Registry

    /// Registers a business (app) handler for `action`, replacing any earlier one.
    ///
    /// For a framework action it runs first; see ``BridgeFallThrough`` for taking over and
    /// falling through. The payload is decoded as `P` (a payload that does not fit is
    /// answered `bad_payload` naming the field; `JSONValue` takes it as it is); the result
    /// is encoded as JSON (`JSONValue` is sent as it is, key order kept).
    /// Errors: throw ``BridgeError`` for a specific code; anything else is `handler_failed`.
    public func register<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ action: String, payload: P.Type, result: R.Type,
        handler: @escaping @Sendable (P, BridgeCallContext) async throws -> R
    ) {
        let erased = AnyBridgeHandler(action: action, payload: payload, result: result, handler: handler)
        state.withLock { $0.business[action] = erased }
    }

    /// Registers a synchronous business handler: it runs inline on the page's thread while
    /// the page's `postMessage` is still on the stack, with no task and no thread hop — the
    /// fast path (a few µs per call). It must not block: the native time limit cannot stop
    /// it. Same override rule, decoding and error mapping as the async form; when the action
    /// also has an async framework handler, falling through from here runs that one async.
    public func registerSync<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ action: String, payload: P.Type, result: R.Type,
        handler: @escaping @Sendable (P, BridgeCallContext) throws -> R
    ) {
        let erased = AnyBridgeHandler(action: action, payload: payload, result: result, synchronousHandler: handler)
        state.withLock { $0.business[action] = erased }
    }

    /// Registers a framework-layer handler (what ships with StateHub), replacing the default
    /// one for `action`. Business handlers still run before it.
    public func registerFramework<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ action: String, payload: P.Type, result: R.Type,
        handler: @escaping @Sendable (P, BridgeCallContext) async throws -> R
    ) {
        let erased = AnyBridgeHandler(action: action, payload: payload, result: result, handler: handler)
        state.withLock { $0.framework[action] = erased }
    }

    /// Removes the business handler for `action` (the framework one, if any, answers again).
    public func unregister(_ action: String) {
        state.withLock { _ = $0.business.removeValue(forKey: action) }
    }

    /// Names the TypeScript payload and result types of `action` for `statehub types
    /// --bridge-ts`, over what its handler's types say (``BridgeTypeDescribing``): for a
    /// handler whose types are `JSONValue` or do not conform. `nil` keeps what the handler says.
    public func describe(_ action: String, payload: String? = nil, result: String? = nil) {
        state.withLock { state in
            var described = state.described[action] ?? (nil, nil)
            if let payload { described.payload = payload }
            if let result { described.result = result }
            state.described[action] = described
        }
    }

    /// The TypeScript types of every registered action, sorted by action: the business
    /// handler's when there is one, else the framework's; ``describe(_:payload:result:)``
    /// first, then the handler's types, else `unknown`.
    public var actionTypes: [BridgeActionTypes] {
        state.withLock { state in
            Set(state.business.keys).union(state.framework.keys).sorted().map { action in
                let handler = state.business[action] ?? state.framework[action]
                let described = state.described[action]
                return BridgeActionTypes(action: action,
                                         payload: described?.payload ?? handler?.payloadTypeScript ?? "unknown",
                                         result: described?.result ?? handler?.resultTypeScript ?? "unknown")
            }
        }
    }

    /// The actions with a handler in either layer, sorted.
    public var registeredActions: [String] {
        state.withLock { Set($0.business.keys).union($0.framework.keys).sorted() }
    }

    // MARK: Pages

    /// Attaches to a page: receives its `bridge` channel (B.1) and its `page` channel
    /// (B.6: title, intercepted navigations, stylesheet acknowledgements). The page is
    /// detached when it closes. Attaching a page id again replaces the earlier attachment.
    ///
    /// The page must load js/bridge/page-shim.js (in an engine) and
    /// js/bridge/bridge-client.js; see ``BridgeScripts``.
    /// - Throws: whatever the transport throws installing its receivers.
    public func attach(_ transport: any PageTransport, app: MicroApp, shell: any Shell) async throws {
        let page = AttachedPage(transport: transport, app: app, shell: shell)
        let weakHost = WeakHost(value: self)
        let pageID = page.pageID
        try await transport.receiveMessages(on: "bridge") { text in
            guard let host = weakHost.value, let page = host.page(pageID) else { return }
            host.receiveRequest(text, from: page)
        }
        try await transport.receiveMessages(on: "page") { text in
            guard let host = weakHost.value, let page = host.page(pageID) else { return }
            host.receivePageMessage(text, from: page)
        }
        state.withLock { $0.pages[pageID] = page }
        transport.onClose { weakHost.value?.detach(pageID: pageID, ifSameAs: page) }
    }

    /// The ids of the attached pages, sorted (for events sent to every page).
    public var pageIDs: [String] { state.withLock { $0.pages.keys.sorted() } }

    /// Forgets a page: later messages from it are ignored; pending stylesheet
    /// acknowledgements for it fail.
    public func detach(pageID: String) {
        detach(pageID: pageID, ifSameAs: nil)
    }

    private func detach(pageID: String, ifSameAs expected: AttachedPage?) {
        let acks = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            if let expected, s.pages[pageID] !== expected { return [] }
            s.pages.removeValue(forKey: pageID)
            let keys = s.styleAcks.filter { $0.value.page == pageID }.map(\.key)
            return keys.compactMap { s.styleAcks.removeValue(forKey: $0)?.continuation }
        }
        for ack in acks { ack.resume(throwing: PageTransportError.closed(pageID: pageID)) }
    }

    /// The ids of the attached pages, sorted.
    public var attachedPageIDs: [String] { state.withLock { $0.pages.keys.sorted() } }

    /// The shell of an attached page.
    public func shell(ofPage pageID: String) -> (any Shell)? { page(pageID)?.shell }

    func page(_ id: String) -> AttachedPage? { state.withLock { $0.pages[id] } }
}
