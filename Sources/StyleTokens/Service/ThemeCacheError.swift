/// Why the theme cache could not be read or written.
public enum ThemeCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read cached theme \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write cached theme \(path): \(reason)"
        }
    }
}
