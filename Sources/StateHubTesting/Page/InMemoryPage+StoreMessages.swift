import JSEngine
import StateHub

/// Store messages as the sync plugin writes them (docs/PROTOCOL.md A.5), with the `seq` of
/// each store counted for the test.
extension InMemoryPage {
    /// Posts a store message on the hub's channel: the envelope with the store's next `seq`
    /// (restarting at 1 when `restartingSequence`), `type` and `payload`.
    public func postStoreMessage(store storeId: String, type: String, payload: JSONValue, restartingSequence: Bool = false) {
        let (seq, messageId) = nextSequence(for: storeId, restart: restartingSequence)
        let envelope: JSONValue = [
            "v": 1, "storeId": .string(storeId), "messageId": .string(messageId), "seq": .number(Double(seq)),
            "type": .string(type), "payload": payload,
        ]
        post(envelope.jsonText(), on: GlobalStateHub.channel)
    }

    /// Uses up the store's next `seq` without posting anything: the hub sees a gap.
    public func nextSequenceSkip(store storeId: String) {
        _ = nextSequence(for: storeId, restart: false)
    }

    /// `sync_state` `created`: the store appears with `state` (its `seq` starts again at 1).
    public func announce(store storeId: String, state: JSONValue) {
        postStoreMessage(store: storeId, type: "sync_state", payload: ["state": state, "reason": "created"], restartingSequence: true)
    }

    /// `apply_mutation` with one mutation of `ops`.
    public func mutate(store storeId: String, type: String = "direct", ops: [MutationOp]) {
        let mutation: JSONValue = ["type": .string(type), "ops": .array(ops.map(Self.wire))]
        postStoreMessage(store: storeId, type: "apply_mutation", payload: ["mutations": [mutation]])
    }

    /// `action_result` answering `dispatch` with `value` (or, with `error`, an `action_threw`).
    public func answer(_ dispatch: SentMessage, value: JSONValue = ["$type": "undefined"]) {
        guard let storeId = dispatch.storeId, let id = dispatch.messageId else { return }
        postResult(store: storeId, messageId: id, payload: ["ok": true, "value": value])
    }

    /// `action_result` failing `dispatch` as a thrown error would.
    public func fail(_ dispatch: SentMessage, name: String = "Error", message: String) {
        guard let storeId = dispatch.storeId, let id = dispatch.messageId else { return }
        postResult(store: storeId, messageId: id, payload: [
            "ok": false,
            "error": ["code": "action_threw", "name": .string(name), "message": .string(message), "stack": ""],
        ])
    }

    /// `store_disposed`.
    public func dispose(store storeId: String) {
        postStoreMessage(store: storeId, type: "store_disposed", payload: [:])
    }

    /// An op as the plugin writes it (A.2).
    static func wire(_ op: MutationOp) -> JSONValue {
        func path(_ steps: [PathStep]) -> JSONValue {
            .array(steps.map { step in
                switch step {
                case .key(let key): .string(key)
                case .index(let index): .number(Double(index))
                }
            })
        }
        switch op {
        case .set(let steps, let value): return ["op": "set", "path": path(steps), "value": value]
        case .delete(let steps): return ["op": "delete", "path": path(steps)]
        case .splice(let steps, let index, let deleteCount, let items):
            return ["op": "splice", "path": path(steps), "index": .number(Double(index)),
                    "deleteCount": .number(Double(deleteCount)), "items": .array(items)]
        }
    }

    private func postResult(store storeId: String, messageId: String, payload: JSONValue) {
        let (seq, _) = nextSequence(for: storeId, restart: false)
        let envelope: JSONValue = [
            "v": 1, "storeId": .string(storeId), "messageId": .string(messageId), "seq": .number(Double(seq)),
            "type": "action_result", "payload": payload,
        ]
        post(envelope.jsonText(), on: GlobalStateHub.channel)
    }
}
