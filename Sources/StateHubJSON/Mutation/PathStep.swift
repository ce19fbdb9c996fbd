/// One step of a path into a store's state: an object key or an array index.
///
/// On the wire a path is a JSON array of steps: strings are keys, non-negative integers are
/// indices (docs/PROTOCOL.md A.2). A key that looks like a number is still a key.
public enum PathStep: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    /// Reads a step from the wire. `nil` for anything but a string or a non-negative integer.
    package init?(_ value: JSONValue) {
        switch value {
        case .string(let key): self = .key(key)
        case .number(let n) where n >= 0 && n.rounded() == n && n <= 9_007_199_254_740_992: self = .index(Int(n))
        default: return nil
        }
    }

    package var json: JSONValue {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .number(Double(index))
        }
    }

    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}

extension Array where Element == PathStep {
    /// `items.0.qty`, or `(root)` for the empty path.
    package var dotted: String { isEmpty ? "(root)" : map(\.description).joined(separator: ".") }
}
