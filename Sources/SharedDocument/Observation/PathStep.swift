/// One step of a path: a map key or an array index.
public enum PathStep: Equatable, Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): "\"\(key)\""
        case .index(let index): "\(index)"
        }
    }
}
