/// Why a message could not reach a page.
public enum PageTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The page is gone.
    case closed(pageID: String)
    /// The page has no function at that path.
    case noFunction(pageID: String, path: String)

    public var description: String {
        switch self {
        case .closed(let page): "page \(page) is closed"
        case .noFunction(let page, let path): "page \(page) has no function \(path)"
        }
    }
}
