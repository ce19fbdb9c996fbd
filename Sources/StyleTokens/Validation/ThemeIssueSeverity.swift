/// How serious a theme issue is: errors stop a theme from being applied, warnings do not.
public enum ThemeIssueSeverity: String, Sendable, Hashable, Comparable {
    case warning
    case error

    public static func < (lhs: ThemeIssueSeverity, rhs: ThemeIssueSeverity) -> Bool {
        lhs == .warning && rhs == .error
    }
}
