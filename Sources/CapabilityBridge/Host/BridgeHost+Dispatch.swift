import JSEngine
import Trace

extension BridgeHost {
    /// The function replies and events are delivered to (B.2).
    static let receiveFunction = "StateHubBridge.receive"

    /// A B.1 request text from a page's `bridge` channel. Runs on the page's thread.
    func receiveRequest(_ text: String, from page: AttachedPage) {
        record(.webToNative, page: page, type: "invoke", message: text)
        let size = text.utf8.count
        if size > configuration.maxRequestBytes {
            let error = BridgeError(.payloadTooLarge, "request of \(size) bytes is over the cap of \(configuration.maxRequestBytes) bytes")
            guard let id = BridgeRequest.peekID(text) else {
                record(.webToNative, page: page, type: "invoke", message: "{}", note: "dropped: \(error); no id in its first bytes")
                return
            }
            reply(id: id, action: nil, .failure(error), to: page)
            return
        }
        let request: BridgeRequest
        do { request = try BridgeRequest.parse(text) } catch {
            if let id = error.id {
                reply(id: id, action: nil, .failure(BridgeError(.badPayload, error.message)), to: page)
            } else {
                record(.webToNative, page: page, type: "invoke", message: "{}", note: "dropped: \(error.message)")
            }
            return
        }
        let id = request.id ?? ""
        start(request, page: page, transport: .message) { [weak self] result in
            self?.reply(id: id, action: request.action, result, to: page)
        }
    }

    /// Sends a B.2 reply and records it.
    func reply(id: String, action: String?, _ result: Result<JSONValue, BridgeError>, to page: AttachedPage) {
        let text: String
        let note: String?
        switch result {
        case .success(let data):
            text = BridgeReply.success(id: id, data: data)
            note = action
        case .failure(let error):
            text = BridgeReply.failure(id: id, error: error)
            note = [action, error.code.rawValue].compactMap { $0 }.joined(separator: ": ")
        }
        record(.nativeToWeb, page: page, type: "reply", message: text, note: note)
        deliver(text, to: Self.receiveFunction, page: page, type: "reply")
    }

    /// Hands a text to a page function; a failure (page gone, function missing) is recorded.
    func deliver(_ text: String, to function: String, page: AttachedPage, type: String) {
        guard let transport = page.transport else {
            record(.nativeToWeb, page: page, type: type, message: text, note: "dropped: page \(page.pageID) is gone")
            return
        }
        let weakHost = WeakHost(value: self)
        transport.send(text, toFunction: function) { error in
            weakHost.value?.record(.nativeToWeb, page: page, type: type, message: text, note: "delivery failed: \(error)")
        }
    }

    /// Runs one call through grants, URL policy and the handler layers under the native time
    /// limit, and calls `answer` exactly once with the outcome.
    ///
    /// When every handler that could answer is synchronous, the call is answered inline
    /// before this returns (no task, no timer). Otherwise the handlers run in a task started
    /// with `Task.immediate` (on Apple platforms before macOS/iOS 26: `Task`): it runs on this
    /// thread until the handler first suspends, so a non-suspending async handler (every
    /// framework handler on a ``HeadlessShell``) is answered with no thread hop either; only
    /// a handler that really suspends gets a timer task for the time limit.
    func start(_ request: BridgeRequest, page: AttachedPage, transport: BridgeTransportKind,
               answer deliver: @escaping @Sendable (Result<JSONValue, BridgeError>) -> Void) {
        noteActivity(inFlight: 1)
        let answer: @Sendable (Result<JSONValue, BridgeError>) -> Void = { [weak self] result in
            deliver(result)
            self?.noteActivity(inFlight: -1)
        }
        let resolution = resolve(request, page: page)
        let handlers: (business: AnyBridgeHandler?, framework: AnyBridgeHandler?)
        switch resolution {
        case .failure(let error):
            answer(.failure(error))
            return
        case .success(let found):
            handlers = found
        }
        let context = BridgeCallContext(
            pageID: page.pageID, app: page.app, action: request.action, requestID: request.id, transport: transport,
            rawPayload: request.payload, shell: page.shell, page: page, host: WeakHost(value: self))
        if let result = Self.runSynchronously(request, handlers, context) {
            answer(result)
            return
        }
        // The limit counts from here, before the handler runs: time a test clock is advanced
        // while the handler is busy counts even if the timer below has not started sleeping.
        let limit = configuration.handlerTimeLimit
        let sleepOut = Self.sleeper(on: configuration.clock, for: limit)
        let gate = ReplyGate()
        let work: @Sendable () async -> Void = {
            let result = await Self.run(request, handlers, context)
            if gate.claim() { answer(result) }
        }
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, *) {
            // Starts on this (the page's) thread and runs until the handler first suspends:
            // a handler that never does is answered before this returns, with no hop.
            task = Task.immediate(operation: work)
            if gate.isAnswered { return }
        } else {
            task = Task(operation: work)
        }
        let action = request.action
        gate.arm(Task {
            do { try await sleepOut() } catch { return }
            if gate.claim() {
                task.cancel()
                answer(.failure(BridgeError(.timeout, "\(action): no answer from the native handler within \(limit)")))
            }
        })
    }

    /// A sleep until `duration` from now on `clock`: the instant is read now, the sleep
    /// happens when called.
    static func sleeper<C: Clock<Duration>>(on clock: C, for duration: Duration) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: duration)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// Grants, then the URL policy, then handler lookup (business, framework).
    func resolve(_ request: BridgeRequest, page: AttachedPage) -> Result<(business: AnyBridgeHandler?, framework: AnyBridgeHandler?), BridgeError> {
        let action = request.action
        guard page.app.grants.allows(action) else {
            return .failure(BridgeError(.refused, "\(action): micro-app \(page.app.id) is not granted this action"))
        }
        if action == FrameworkAction.gotoWebview.rawValue, case .string(let url)? = request.payload["url"],
           let violation = configuration.urlAllowlist.violation(for: url) {
            return .failure(BridgeError(.urlNotAllowed, "gotoWebview: \(violation)"))
        }
        let (business, framework) = state.withLock { ($0.business[action], $0.framework[action]) }
        guard business != nil || framework != nil else {
            return .failure(BridgeError(.unknownAction, "\(action): no handler for this action"))
        }
        return .success((business, framework))
    }

    /// The outcome when it can be had without suspending: the business handler is
    /// synchronous and takes over or fails, or every handler that could run is synchronous.
    /// `nil` when an async handler has to run (nothing has run then, except a synchronous
    /// business handler that fell through — its fall-through is honoured by ``run``).
    static func runSynchronously(_ request: BridgeRequest, _ handlers: (business: AnyBridgeHandler?, framework: AnyBridgeHandler?),
                                 _ context: BridgeCallContext) -> Result<JSONValue, BridgeError>? {
        let action = request.action
        if let business = handlers.business {
            guard let sync = business.runSync else { return nil }
            do { return .success(try sync(request.payload, context)) } catch is BridgeFallThrough {
                guard let framework = handlers.framework else {
                    return .failure(BridgeError(.unknownAction, "\(action): the app's handler fell through and no framework handler exists"))
                }
                guard let frameworkSync = framework.runSync else { return nil }
                return mapErrors(action) { try frameworkSync(request.payload, context) }
            } catch {
                return mapErrors(action) { throw error }
            }
        }
        guard let frameworkSync = handlers.framework?.runSync else { return nil }
        return mapErrors(action) { try frameworkSync(request.payload, context) }
    }

    /// The async path: business first (unless it is synchronous, which already ran and fell
    /// through), then the framework on fall-through.
    static func run(_ request: BridgeRequest, _ handlers: (business: AnyBridgeHandler?, framework: AnyBridgeHandler?),
                    _ context: BridgeCallContext) async -> Result<JSONValue, BridgeError> {
        let action = request.action
        if let business = handlers.business, business.runSync == nil {
            do { return .success(try await business.run(request.payload, context)) } catch is BridgeFallThrough {
                // handled below
            } catch {
                return mapErrors(action) { throw error }
            }
        }
        guard let framework = handlers.framework else {
            return .failure(BridgeError(.unknownAction, "\(action): the app's handler fell through and no framework handler exists"))
        }
        do { return .success(try await framework.run(request.payload, context)) } catch {
            return mapErrors(action) { throw error }
        }
    }

    /// Runs `body` and maps what it throws to a coded error.
    static func mapErrors(_ action: String, _ body: () throws -> JSONValue) -> Result<JSONValue, BridgeError> {
        do { return .success(try body()) } catch let error as BridgeError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(BridgeError(.timeout, "\(action): the handler was cancelled"))
        } catch is BridgeFallThrough {
            return .failure(BridgeError(.handlerFailed, "\(action): the framework handler cannot fall through"))
        } catch {
            return .failure(BridgeError(.handlerFailed, "\(action): \(error)"))
        }
    }

    /// Records one bridge message (channel `bridge`), if there is a trace.
    func record(_ direction: TraceDirection, page: AttachedPage, type: String, message: String, note: String? = nil) {
        trace?.record(direction, channel: TraceChannel.bridge, engine: page.pageID, type: type, message: message, note: note)
    }
}
