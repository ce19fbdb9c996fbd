/// Misuse of the host API by native code (as opposed to coded errors sent to pages).
public enum BridgeHostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No attached page has this id.
    case unknownPage(String)
    /// `tapRightItem(at:onPage:)` with no item at that index.
    case noRightItem(pageID: String, index: Int, count: Int)
    /// The page did not acknowledge a stylesheet replacement.
    case styleSheetNotApplied(pageID: String, reason: String)

    public var description: String {
        switch self {
        case .unknownPage(let id): "no page \(id) is attached to the bridge"
        case .noRightItem(let id, let index, let count): "page \(id) has no right header item at index \(index) (it has \(count))"
        case .styleSheetNotApplied(let id, let reason): "page \(id) did not apply the stylesheet: \(reason)"
        }
    }
}
