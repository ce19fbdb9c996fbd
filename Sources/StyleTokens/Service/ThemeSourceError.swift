/// Why a `ThemeSource` could not deliver theme bytes.
public enum ThemeSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing published at `location` for the requested major version.
    case notFound(location: String)
    /// Something is there but could not be read.
    case unreadable(location: String, reason: String)
    /// The transport failed (network sources).
    case transport(reason: String)

    public var description: String {
        switch self {
        case .notFound(let location): "no theme at \(location)"
        case .unreadable(let location, let reason): "cannot read theme at \(location): \(reason)"
        case .transport(let reason): "theme transport failed: \(reason)"
        }
    }
}
