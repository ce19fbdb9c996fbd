import StateHubJSON

/// A trace read as a timeline for people: each record as a step with the action that caused
/// it, every operation with its old and new value, and what a viewer needs to rebuild the
/// whole state at any step. Built in one pass, O(records + total op sizes); nothing in it
/// recurses on a page's nesting, and a message whose ops would nest a store's state deeper
/// than the hub's cap (`JSONValue.maximumStateDepth`) is shown refused, as the hub refuses it.
///
/// Actions: a `dispatch_action` opens an action (`cart.add`, started from native) until its
/// `action_result`; an `apply_mutation` that carries an `action` field (set by the plugin
/// for actions the page started itself; on the message, its payload or a mutation) is
/// grouped under that action, unless a native action is open on the store: then it is
/// grouped under that native action (the tag names the innermost action, e.g. one the native
/// action called after an `await`, kept as `innerAction`); other mutations of a store with an
/// open native action go under it; the rest stand alone.
///
/// It lives in Trace (which starts no engine) so that `statehub trace show` / `trace view` and
/// the server's console (`POST /admin/console/trace-timeline`) build one model with one code;
/// operations are applied with StateHubJSON's `JSONValue.apply(_:)`, the hub's own.
///
/// Bounded by ``Limits``: the steps' JSON and the padding ops add to arrays, in proportion to
/// the trace; past either the model is not built (``TimelineModelError``).
package struct TimelineModel: Sendable {
    package struct Change: Sendable {
        /// Dotted path, `(root)` for the whole state.
        package var path: String
        package var kind: String
        package var old: JSONValue?
        package var new: JSONValue?
        /// Part of a message the hub refused (an op of it could not be applied): not in the mirror.
        package var refused = false
    }

    package struct Step: Sendable {
        package var step: Int
        package var time: UInt64
        package var direction: TraceDirection
        package var channel: String
        package var engine: String
        package var store: String?
        package var type: String
        package var seq: Int?
        package var size: Int
        package var note: String?
        /// `cart.add`, when the step belongs to an action.
        package var action: String?
        /// The innermost action the plugin tagged the write with, when it differs from
        /// `action` (an action the grouped one called, e.g. after an `await`).
        package var innerAction: String?
        /// One line: what the step was (a dispatch, a result, a bridge call…).
        package var summary: String?
        package var changes: [Change] = []
        /// Why the hub refused this message's ops, when it did (its changes are marked, its
        /// ops are not applied).
        package var refused: String?
        /// For a viewer: the store's whole new state (snapshots), or the ops to apply.
        package var snapshot: JSONValue?
        package var ops: [JSONValue] = []
    }

    package var steps: [Step] = []
    /// The bounds it was built within (a viewer replaying its steps keeps the same).
    package let limits: Limits

    /// - Parameter limits: the bounds; by default ``Limits/forRecords(_:)`` (the CLI's).
    /// - Throws: ``TimelineModelError`` when the steps would pass a bound.
    package init(records: [TraceRecord], limits: Limits? = nil) throws(TimelineModelError) {
        let limits = limits ?? .forRecords(records)
        self.limits = limits
        var answerBytes = 0
        var paddingNulls = 0
        var states: [String: JSONValue] = [:]
        var openDispatches: [String: String] = [:]   // messageId → store.action
        var openByStore: [String: String] = [:]      // store → the native action running there
        for (position, record) in records.enumerated() {
            /// Charges `value`'s JSON to the answer's budget.
            func charge(_ value: JSONValue?, plus extra: Int = 0) throws(TimelineModelError) {
                let over = TimelineModelError(bound: .answerBytes, limit: limits.answerBytes, record: position + 1, step: record.step)
                let remaining = limits.answerBytes - answerBytes - extra
                guard remaining >= 0 else { throw over }
                var count = 0
                if let value {
                    guard let counted = Self.textCount(value, limit: remaining) else { throw over }
                    count = counted
                }
                answerBytes += count + extra
            }
            try charge(nil, plus: 160 + record.engine.utf8.count + (record.store?.utf8.count ?? 0) + record.type.utf8.count
                       + record.channel.utf8.count + (record.note.map(Self.stringCount) ?? 0))
            var step = Step(step: record.step, time: record.time, direction: record.direction, channel: record.channel,
                            engine: record.engine, store: record.store, type: record.type, seq: record.seq,
                            size: record.size, note: record.note)
            // As deep as the hub parses a message: a state at the depth cap still shows.
            let message = try? JSONValue(parsing: record.message, options: JSONParsingOptions(maximumDepth: JSONValue.maximumMessageNesting))
            if record.channel == TraceChannel.nativeBridge, let message {
                let payload = message["payload"]
                let messageId = message["messageId"]?.stringValue
                switch record.type {
                case "dispatch_action":
                    let name = "\(record.store ?? "?").\(payload?["action"]?.stringValue ?? "?")"
                    if let messageId { openDispatches[messageId] = name }
                    if let store = record.store { openByStore[store] = name }
                    step.action = name
                    let args = payload?["args"]?.arrayValue ?? []
                    step.summary = "dispatch \(name)(\(args.map { $0.cutText() }.joined(separator: ", ")))"
                case "action_result":
                    let name = messageId.flatMap { openDispatches.removeValue(forKey: $0) }
                    step.action = name
                    if let store = record.store, openByStore[store] == name { openByStore.removeValue(forKey: store) }
                    if payload?["ok"] == .bool(true) {
                        step.summary = "result: \((payload?["value"] ?? ["$type": "undefined"]).javaScriptText())"
                    } else {
                        let error = payload?["error"]
                        step.summary = "failed: \(error?["code"]?.stringValue ?? "?"): \(error?["message"]?.stringValue ?? "")"
                    }
                case "sync_state":
                    if let store = record.store, let state = payload?["state"], record.direction == .webToNative {
                        let old = states[store]
                        states[store] = state
                        step.snapshot = state
                        step.changes.append(Change(path: "(root)", kind: "snapshot", old: old, new: state))
                        try charge(old, plus: 60)
                        try charge(state)
                        try charge(state)
                        step.summary = "snapshot (\(payload?["reason"]?.stringValue ?? "?"))"
                    }
                case "apply_mutation" where record.direction == .webToNative:
                    let tagged = message["action"]?.stringValue ?? payload?["action"]?.stringValue
                    var mutationAction: String?
                    if let store = record.store {
                        // The hub applies a message's ops in order and refuses the message at
                        // the first that fails (then resyncs): its changes are shown as refused
                        // and none of its ops count.
                        // Taken out, so it is uniquely referenced and each op changes it in
                        // place (no copy per message); a refused message is undone (Undo).
                        let existed = states[store] != nil
                        var state = states.removeValue(forKey: store) ?? .object([:])
                        var undos: [Undo] = []
                        for mutation in payload?["mutations"]?.arrayValue ?? [] {
                            mutationAction = mutationAction ?? mutation["action"]?.stringValue
                            for wire in mutation["ops"]?.arrayValue ?? [] {
                                // The hub's own reader: an op it would refuse (a negative splice
                                // index, say) is not shown as applied, and cannot trap here.
                                guard let op = try? MutationOp(wire: wire) else { continue }
                                step.ops.append(wire)
                                let change = Self.change(op, in: state)
                                try charge(wire)
                                try charge(change.old, plus: 60 + change.path.utf8.count * 2)
                                try charge(change.new)
                                step.changes.append(change)
                                guard step.refused == nil else { continue }
                                // The hub's depth cap: a message that would nest the state
                                // deeper is refused whole, so no walk meets a deeper state.
                                let depth = op.resultingDepth()
                                guard depth <= JSONValue.maximumStateDepth else {
                                    step.refused = "\(op.path.dotted): nests deeper than \(JSONValue.maximumStateDepth) levels"
                                    continue
                                }
                                let padding = Self.padding(op, in: state)
                                let undo = Self.undo(for: op, in: state)
                                do throws(MutationOpError) { try state.apply(op) } catch { step.refused = "\(error)"; continue }
                                if let undo { undos.append(undo) }
                                paddingNulls += padding
                                guard paddingNulls <= limits.paddingNulls else {
                                    throw TimelineModelError(bound: .paddingNulls, limit: limits.paddingNulls, record: position + 1, step: record.step)
                                }
                            }
                        }
                        if let reason = step.refused {
                            for index in step.changes.indices { step.changes[index].refused = true }
                            step.ops = []
                            step.summary = "refused by the hub: \(reason)"
                            for undo in undos.reversed() { Self.revert(undo, in: &state) }
                        }
                        if existed || step.refused == nil { states[store] = state }
                        let inner = (tagged ?? mutationAction).map { $0.contains(".") ? $0 : "\(store).\($0)" }
                        step.action = openByStore[store] ?? inner
                        if let inner, inner != step.action { step.innerAction = inner }
                    }
                case "stopped":
                    step.summary = "stopped: \(payload?["reason"]?.stringValue ?? message["reason"]?.stringValue ?? "")"
                    step.action = record.store.flatMap { openByStore[$0] }
                default:
                    break
                }
            } else if record.channel == TraceChannel.bridge, let message {
                step.summary = Self.bridgeSummary(record.type, message)
            }
            try charge(nil, plus: step.summary.map(Self.stringCount) ?? 0)
            steps.append(step)
        }
    }

    static func bridgeSummary(_ type: String, _ message: JSONValue) -> String {
        if let action = message["action"]?.stringValue {
            return "\(type) \(action)(\((message["payload"] ?? .null).cutText()))"
        }
        if let ok = message["ok"] {
            if ok == .bool(true) { return "\(type) \(message["id"]?.stringValue ?? ""): ok \((message["data"] ?? .null).cutText())" }
            return "\(type) \(message["id"]?.stringValue ?? ""): failed \(message["error"]?["code"]?.stringValue ?? "")"
        }
        if let event = message["event"]?.stringValue { return "event \(event)" }
        return type
    }

    static func change(_ op: MutationOp, in state: JSONValue) -> Change {
        let dotted = op.path.dotted
        let old = value(at: op.path, in: state)
        switch op {
        case .set(_, let value): return Change(path: dotted, kind: "set", old: old, new: value)
        case .delete: return Change(path: dotted, kind: "delete", old: old, new: nil)
        case .splice(_, let index, let count, let items):
            let removed = old?.arrayValue.map { array -> JSONValue in
                let start = min(index, array.count)
                return .array(Array(array[start ..< start + min(count, array.count - start)]))
            }
            return Change(path: "\(dotted)[\(index)…]", kind: "splice", old: removed, new: .array(items))
        }
    }

    /// The value at `path`, iteratively.
    static func value(at path: [PathStep], in state: JSONValue) -> JSONValue? {
        var current = state
        for step in path {
            switch step {
            case .key(let key): guard let next = current[key] else { return nil }; current = next
            case .index(let index): guard let next = current[index] else { return nil }; current = next
            }
        }
        return current
    }
}
