/// Why a ``PagePool`` did not hand out a page.
public enum PagePoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pool was closed.
    case closed

    public var description: String {
        switch self {
        case .closed: "the page pool is closed"
        }
    }
}
