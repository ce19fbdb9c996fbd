import JSEngine

/// Output lines stay short: string values and keys longer than this are cut with a note.
let longestPrintedString = 2_000

extension JSONValue {
    /// Indented JSON text for people: two spaces a level, keys in the value's own order,
    /// strings over ``longestPrintedString`` characters cut with a note (so no line is
    /// longer than a few KB). Iterative: a page's nesting depth cannot overflow the stack.
    func prettyText() -> String {
        enum Work { case value(JSONValue, indent: Int, prefix: String, suffix: String), text(String) }
        var out = ""
        var work: [Work] = [.value(self, indent: 0, prefix: "", suffix: "")]
        func pad(_ n: Int) -> String { String(repeating: "  ", count: n) }
        while let item = work.popLast() {
            switch item {
            case .text(let text):
                out += text
            case .value(let value, let indent, let prefix, let suffix):
                out += prefix
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    out += "[\n"
                    work.append(.text("\n" + pad(indent) + "]" + suffix))
                    for (index, element) in elements.enumerated().reversed() {
                        work.append(.value(element, indent: indent + 1, prefix: pad(indent + 1), suffix: index == elements.count - 1 ? "" : ",\n"))
                    }
                case .object(let members) where !members.isEmpty:
                    out += "{\n"
                    work.append(.text("\n" + pad(indent) + "}" + suffix))
                    for (index, member) in members.enumerated().reversed() {
                        let key = JSONValue.string(member.key.string).cutText()
                        work.append(.value(member.value, indent: indent + 1, prefix: pad(indent + 1) + key + ": ", suffix: index == members.count - 1 ? "" : ",\n"))
                    }
                case .array: out += "[]" + suffix
                case .object: out += "{}" + suffix
                default: out += value.cutText() + suffix
                }
            }
        }
        return out
    }

    /// Compact JSON text with long strings cut (for one-line output), iteratively.
    func cutText() -> String { cutText(javaScript: false) }

    /// A value as JavaScript would show it, on one line with long strings cut: the tagged
    /// forms of docs/PROTOCOL.md A.3 as the values they stand for (`undefined`, `NaN`,
    /// `12n`, a `Date` as its ISO text, `Map(1) {"a" => 1}`, `Set(2) {1, 2}`, an escaped
    /// object as itself), everything else as compact JSON. For action results, where
    /// `undefined` and `null` must not look alike.
    func javaScriptText() -> String { cutText(javaScript: true) }

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
            case .string(let string) where string.count > longestPrintedString:
                out += JSONValue.string(String(string.prefix(longestPrintedString))).jsonText().dropLast() + "…\" /* cut: \(string.utf8.count) bytes */"
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

    /// The dotted path of the first place where `self` and `other` differ (object key
    /// order ignored), or `nil` when they are equal. Iterative, O(size).
    func firstDifference(from other: JSONValue) -> String? {
        var work: [(JSONValue, JSONValue, String)] = [(self, other, "$")]
        while let (lhs, rhs, path) = work.popLast() {
            switch (lhs, rhs) {
            case (.object(let l), .object(let r)):
                guard l.count == r.count else { return "\(path) (\(l.count) keys in the mirror, \(r.count) in the engine)" }
                for (key, value) in l {
                    guard let otherValue = r[key] else { return "\(path).\(key) (missing in the engine)" }
                    work.append((value, otherValue, "\(path).\(key)"))
                }
            case (.array(let l), .array(let r)):
                guard l.count == r.count else { return "\(path) (length \(l.count) in the mirror, \(r.count) in the engine)" }
                for (index, pair) in zip(l, r).enumerated() { work.append((pair.0, pair.1, "\(path)[\(index)]")) }
            case (.object, _), (.array, _), (_, .object), (_, .array):
                return path
            default:
                if lhs != rhs { return path }
            }
        }
        return nil
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

extension String {
    /// The string, cut to a few KB with a note when longer.
    func cutLine(limit: Int = 4_000) -> String {
        guard utf8.count > limit else { return self }
        return String(prefix(limit)) + "… [cut: \(utf8.count) bytes in all]"
    }
}
