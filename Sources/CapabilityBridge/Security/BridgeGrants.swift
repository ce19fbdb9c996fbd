/// The set of actions a micro-app is granted.
public enum BridgeGrants: Sendable, Hashable {
    /// Every action (framework and business): for first-party pages and tests.
    case all
    /// Only these action names.
    case actions(Set<String>)

    /// Every framework action (``FrameworkAction``) plus `extra`.
    public static func framework(plus extra: Set<String> = []) -> BridgeGrants {
        .actions(Set(FrameworkAction.allCases.map(\.rawValue)).union(extra))
    }

    /// Whether `action` is granted. O(1) on average.
    public func allows(_ action: String) -> Bool {
        switch self {
        case .all: true
        case .actions(let set): set.contains(action)
        }
    }
}
