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
    /// The handler starts synchronously on the calling thread and runs until its first
    /// suspension: a handler that never suspends answers before this returns, with no
    /// thread hop and no timer. Otherwise a timer task is armed for the time limit.
    func start(_ request: BridgeRequest, page: AttachedPage, transport: BridgeTransportKind,
               answer: @escaping @Sendable (Result<JSONValue, BridgeError>) -> Void) {
        let gate = ReplyGate()
        let work: @Sendable () async -> Void = { [weak self] in
            guard let self else { return }
            let result = await self.execute(request, page: page, transport: transport)
            if gate.claim() { answer(result) }
        }
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, *) {
            task = Task.immediate(operation: work)
        } else {
            task = Task(operation: work)
        }
        guard !gate.isAnswered else { return }
        let limit = configuration.handlerTimeLimit
        let action = request.action
        gate.arm(Task {
            do { try await Task.sleep(for: limit) } catch { return }
            if gate.claim() {
                task.cancel()
                answer(.failure(BridgeError(.timeout, "\(action): no answer from the native handler within \(limit)")))
            }
        })
    }

    /// Grants, URL policy, lookup, override order, decoding and the handler itself.
    func execute(_ request: BridgeRequest, page: AttachedPage, transport: BridgeTransportKind) async -> Result<JSONValue, BridgeError> {
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
        let context = BridgeCallContext(
            pageID: page.pageID, app: page.app, action: action, requestID: request.id, transport: transport,
            rawPayload: request.payload, shell: page.shell, page: page, host: WeakHost(value: self))
        do {
            if let business {
                do { return .success(try await business.run(request.payload, context)) } catch is BridgeFallThrough {
                    guard framework != nil else {
                        return .failure(BridgeError(.unknownAction, "\(action): the app's handler fell through and no framework handler exists"))
                    }
                }
            }
            guard let framework else {
                return .failure(BridgeError(.unknownAction, "\(action): no handler for this action"))
            }
            return .success(try await framework.run(request.payload, context))
        } catch let error as BridgeError {
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
