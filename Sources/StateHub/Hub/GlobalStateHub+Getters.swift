import JSEngine

/// A store's getters as its page computed them (docs/PROTOCOL.md A.13): read-only here. Native
/// cannot write a getter: there is no API for it, and a getter is computed from the state, which
/// native changes only through actions (`dispatch`).
extension GlobalStateHub {
    /// The values of a store's getters, by name, in the tagged encoding the state uses
    /// (docs/PROTOCOL.md A.3), as of the last message from a page hosting the store; `nil` when
    /// no page hosts it. A store without getters, or from a plugin that sends none, has `[:]`.
    ///
    /// A getter that threw, or whose value JSON cannot carry, holds `{"$type":"undefined"}` (or
    /// that part of its value does), and the page's `getter_failed` report is a ``HubProblem``.
    /// Updated in the same step as the state: when ``changes(of:)`` delivers a change, the
    /// getters sent with it are already here.
    public func getters(of storeId: String) -> JSONValue? {
        state.withLock { $0.stores[storeId].map { .object($0.getters) } }
    }

    /// The getters a message carries, checked against the state's depth cap (A.8.1), with the
    /// problem to record when they are over it (they are then ignored).
    func carriedGetters(_ message: StoreMessage, from pageID: String) -> (getters: JSONValue.ObjectMembers?, problem: HubProblem?) {
        guard let value = message.payload["getters"] else { return (nil, nil) }
        guard case .object(let getters) = value else {
            return (nil, HubProblem(pageID: pageID, storeId: message.storeId, kind: .malformedMessage("payload.getters is not an object")))
        }
        let depth = value.nestingDepth()
        if depth > JSONValue.maximumStateDepth {
            return (nil, HubProblem(pageID: pageID, storeId: message.storeId, kind: .tooDeep(depth: depth, limit: JSONValue.maximumStateDepth)))
        }
        return (getters, nil)
    }
}
