import StateHubJSON

// How the timeline is shown: one line of text per change (`trace show`), one JSON object per
// step (`trace show --json`, the page of `trace view`, the console's Traces screen).

extension TimelineModel.Change {
    /// `items.0.qty: 2 → 3`, `delete legacy (was "x")`, `items[1…]: [] → [{…}]`.
    package var text: String {
        switch kind {
        case "delete": return "delete \(path) (was \(old?.cutText() ?? "absent"))"
        case "snapshot": return old == nil ? ":= \(new?.cutText() ?? "null")" : ":= \(new?.cutText() ?? "null") (whole state replaced)"
        default: return "\(path): \(old?.cutText() ?? "absent") → \(new?.cutText() ?? "absent")"
        }
    }
}

extension TimelineModel.Step {
    /// The step as JSON, for `trace show --json` and the viewer.
    package var json: JSONValue {
        var object = JSONValue.ObjectMembers()
        object["step"] = .number(Double(step))
        object["time"] = .number(Double(time))
        object["direction"] = .string(direction == .webToNative ? "web_to_native" : "native_to_web")
        object["channel"] = .string(channel)
        object["engine"] = .string(engine)
        if let store { object["store"] = .string(store) }
        object["type"] = .string(type)
        if let seq { object["seq"] = .number(Double(seq)) }
        object["size"] = .number(Double(size))
        if let note { object["note"] = .string(note) }
        if let action { object["action"] = .string(action) }
        if let innerAction { object["innerAction"] = .string(innerAction) }
        if let summary { object["summary"] = .string(summary) }
        if let refused { object["refused"] = .string(refused) }
        object["changes"] = .array(changes.map { change in
            var c = JSONValue.ObjectMembers()
            c["path"] = .string(change.path)
            c["kind"] = .string(change.kind)
            if let old = change.old { c["old"] = old }
            if let new = change.new { c["new"] = new }
            if change.refused { c["refused"] = .bool(true) }
            return .object(c)
        })
        if let snapshot { object["snapshot"] = snapshot }
        if !ops.isEmpty { object["ops"] = .array(ops) }
        return .object(object)
    }
}
