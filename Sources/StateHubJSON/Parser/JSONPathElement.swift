/// One step from a JSON value to a value inside it.
public enum JSONPathElement: Sendable, Hashable, CustomStringConvertible {
    /// An object member.
    case key(String)
    /// An array element.
    case index(Int)

    /// `.name` or `["a key"]` for a key, `[3]` for an index, as a path in an error reads.
    public var description: String {
        switch self {
        case .index(let index): return "[\(index)]"
        case .key(let key):
            let isIdentifier = key.first.map { $0.isLetter || $0 == "_" || $0 == "$" } ?? false
                && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
            return isIdentifier ? ".\(key)" : "[\(JSONValue.string(key).jsonText())]"
        }
    }
}
