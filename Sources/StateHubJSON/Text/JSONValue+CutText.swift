// One-line text of a value for people (the CLI's output, a trace's timeline): here, in the
// JSON layer, because the timeline is built by the Trace module for the CLI and the server.

extension JSONValue {
    /// Output lines stay short: string values and keys longer than this are cut with a note.
    package static let longestPrintedString = 2_000

    /// Compact JSON text with long strings cut (for one-line output), iteratively.
    package func cutText() -> String { cutText(javaScript: false) }

    /// A value as JavaScript would show it, on one line with long strings cut: the tagged
    /// forms of docs/PROTOCOL.md A.3 as the values they stand for (`undefined`, `NaN`,
    /// `12n`, a `Date` as its ISO text, `Map(1) {"a" => 1}`, `Set(2) {1, 2}`, an escaped
    /// object as itself), everything else as compact JSON. For action results, where
    /// `undefined` and `null` must not look alike.
    package func javaScriptText() -> String { cutText(javaScript: true) }

    private func cutText(javaScript: Bool) -> String {
        // `escaped`: the inside of `{"$type":"Object",…}`, a plain object even with a `$type` key.
        enum Work { case value(JSONValue), escaped(JSONValue), text(String) }
        var out = ""
        var work: [Work] = [.value(self)]
        while let item = work.popLast() {
            let value: JSONValue
            switch item {
            case .text(let text): out += text; continue
            case .escaped(let escaped): value = escaped
            case .value(let tagged):
                value = tagged
                if javaScript, let shown = Self.javaScriptForm(of: value) {
                    switch shown {
                    case .text(let text): out += text
                    case .escaped(let inner): work.append(.escaped(inner))
                    case .collection(let opening, let members):
                        out += opening
                        work.append(.text("}"))
                        for (index, member) in members.enumerated().reversed() {
                            work.append(.value(member.value))
                            if let key = member.key {
                                work.append(.text(" => "))
                                work.append(.value(key))
                            }
                            if index > 0 { work.append(.text(", ")) }
                        }
                    }
                    continue
                }
            }
            switch value {
            case .string(let string) where string.count > Self.longestPrintedString:
                out += JSONValue.string(String(string.prefix(Self.longestPrintedString))).jsonText().dropLast() + "…\" /* cut: \(string.utf8.count) bytes */"
            case .array(let elements):
                out += "["
                work.append(.text("]"))
                for (index, element) in elements.enumerated().reversed() {
                    work.append(.value(element))
                    if index > 0 { work.append(.text(",")) }
                }
            case .object(let members):
                out += "{"
                work.append(.text("}"))
                for (index, member) in members.enumerated().reversed() {
                    work.append(.value(member.value))
                    work.append(.text(JSONValue.string(member.key.string).cutText() + ":"))
                    if index > 0 { work.append(.text(",")) }
                }
            default:
                out += value.jsonText()
            }
        }
        return out
    }

    private enum JavaScriptForm {
        case text(String)
        case escaped(JSONValue)
        /// `Map(n) {` or `Set(n) {`, then the members: a Map's entries with their keys, a Set's without.
        case collection(String, [(key: JSONValue?, value: JSONValue)])
    }

    /// How JavaScript shows a tagged value, or `nil` for a value that is not one.
    private static func javaScriptForm(of value: JSONValue) -> JavaScriptForm? {
        guard case .object(let members) = value, case .string(let tag)? = members["$type"] else { return nil }
        switch tag {
        case "undefined": return .text("undefined")
        case "Number": return members["value"]?.stringValue.map { .text($0) }
        case "BigInt": return members["value"]?.stringValue.map { .text($0 + "n") }
        case "Date": return .text(members["value"]?.stringValue ?? "Invalid Date")
        case "Object": return members["value"].map { .escaped($0) }
        case "Map":
            guard let entries = members["entries"]?.arrayValue else { return nil }
            return .collection("Map(\(entries.count)) {", entries.map { entry in
                guard let pair = entry.arrayValue, pair.count == 2 else { return (nil, entry) }
                return (pair[0], pair[1])
            })
        case "Set":
            guard let values = members["values"]?.arrayValue else { return nil }
            return .collection("Set(\(values.count)) {", values.map { (nil, $0) })
        default: return nil
        }
    }
}
