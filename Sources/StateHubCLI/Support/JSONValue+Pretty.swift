import JSEngine

extension JSONValue {
    /// Indented JSON text for people: two spaces a level, keys in the value's own order.
    func prettyText(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + $0.prettyText(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{\n" + members.map { inner + JSONValue.string($0.key).jsonText() + ": " + $0.value.prettyText(indent: inner) }.joined(separator: ",\n") + "\n\(indent)}"
        default:
            return jsonText()
        }
    }
}
