import JSEngine

/// Something the hub noticed and handled without failing a caller: a malformed message,
/// a sequence gap, an operation that did not apply, an oversize message, an error a page
/// reported (unserialisable state, for one).
///
/// Problems are kept (the newest `GlobalStateHub.Configuration.problemLimit`), recorded in
/// the trace as notes, and handed to `Configuration.onProblem`.
public struct HubProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The message could not be read (bad JSON, missing field, unknown type or version).
        case malformedMessage(String)
        /// A message's `seq` was not the one expected: the hub asked for a resync.
        case sequenceGap(expected: Int, received: Int)
        /// An operation did not apply to the mirror: the hub asked for a resync.
        case operationFailed(MutationOpError)
        /// The message was longer than the size cap and was not read.
        case oversize(bytes: Int, limit: Int)
        /// A message about a store this page never announced.
        case unknownStore
        /// The page reported an error (`code` as in docs/PROTOCOL.md A.5.6).
        case reportedByPage(code: String, message: String, path: [PathStep]?)
        /// An `action_result` answered no pending dispatch (already timed out, say).
        case unmatchedResult(messageId: String)
        /// The message would make the store's state nest deeper than the cap
        /// (docs/PROTOCOL.md A.8.1): refused whole; the page was told with an `error` message.
        case tooDeep(depth: Int, limit: Int)
        /// The message's padding (`null`s a `set` adds past an array's end) would pass a bound
        /// (docs/PROTOCOL.md A.8.2): refused whole, a resync requested. `nulls` is what the
        /// message alone (`perStore` false) or the store since its last whole state would reach.
        case paddingOverLimit(nulls: Int, limit: Int, perStore: Bool)
        /// A well-formed message that breaks the protocol's rules (no `seq` about a hosted
        /// store, say): refused, and a resync requested.
        case protocolViolation(String)
        /// The page stopped an action at its time limit (``StateHubError/stopped(store:action:pageID:reason:)``).
        case stopped(action: String, reason: String)
        /// The page stopped a script at its time limit that no dispatch ran (a script's top
        /// level, a timer, a microtask), or reported a turn the limit cannot stop.
        case scriptStopped(ScriptStop)
        /// The hub stopped asking a page for the store's whole state: every answer was stopped
        /// at the page's time limit. The mirror may stay behind the page
        /// (``MirrorStatus/stale(reason:)``) until the page sends a whole state again.
        case mirrorStale(reason: String)
    }

    public var pageID: String
    public var storeId: String?
    public var kind: Kind
    /// The engine's data about a stop (kind, file, line, function, limit) for
    /// ``Kind-swift.enum/stopped(action:reason:)`` and ``Kind-swift.enum/scriptStopped(_:)``,
    /// so a caller reports every stop kind with the same fields; `nil` for other problems.
    public var stop: ScriptStop?

    /// A problem as the hub records it (public so tests can state a whole expected list).
    public init(pageID: String, storeId: String?, kind: Kind, stop: ScriptStop? = nil) {
        self.pageID = pageID
        self.storeId = storeId
        self.kind = kind
        self.stop = stop ?? { if case .scriptStopped(let stop) = kind { stop } else { nil } }()
    }

    public var description: String {
        let place = "page \(pageID)" + (storeId.map { ", store \($0)" } ?? "")
        switch kind {
        case .malformedMessage(let reason): return "\(place): malformed message: \(reason)"
        case .sequenceGap(let expected, let received): return "\(place): sequence gap: expected seq \(expected), got \(received); resync requested"
        case .operationFailed(let error): return "\(place): \(error); resync requested"
        case .oversize(let bytes, let limit): return "\(place): message of \(bytes) bytes over the cap of \(limit); resync requested"
        case .unknownStore: return "\(place): message for a store the page never announced"
        case .reportedByPage(let code, let message, let path): return "\(place): page reported \(code)\(path.map { " at \($0.dotted)" } ?? ""): \(message)"
        case .unmatchedResult(let id): return "\(place): action_result \(id) answers no pending dispatch"
        case .protocolViolation(let reason): return "\(place): protocol violation: \(reason); resync requested"
        case .tooDeep(let depth, let limit): return "\(place): state would nest \(depth > limit ? "more than \(limit)" : "\(depth)") levels deep, over the cap of \(limit); message refused"
        case .paddingOverLimit(let nulls, let limit, let perStore):
            let what = perStore ? "the store's padding since its last whole state" : "the message's padding"
            return "\(place): \(what) would reach \(nulls) nulls past arrays' ends, over the cap of \(limit); message refused, resync requested"
        case .stopped(let action, let reason): return "\(place): action \(action) stopped: \(reason)"
        case .scriptStopped(let stop): return "\(place): \(stop) (\(stop.what))"
        case .mirrorStale(let reason): return "\(place): the mirror may be behind the page (stale): \(reason)"
        }
    }
}
