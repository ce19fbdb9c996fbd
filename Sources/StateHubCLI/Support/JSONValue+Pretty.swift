import JSEngine

extension JSONValue {
    /// Indented JSON text for people: two spaces a level, keys in the value's own order,
    /// strings over `JSONValue.longestPrintedString` characters cut with a note (so no line is
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
}

extension String {
    /// The string, cut to a few KB with a note when longer.
    func cutLine(limit: Int = 4_000) -> String {
        guard utf8.count > limit else { return self }
        return String(prefix(limit)) + "… [cut: \(utf8.count) bytes in all]"
    }
}
