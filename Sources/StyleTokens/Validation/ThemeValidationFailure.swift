/// A theme that has errors and therefore was not applied. Carries every issue found
/// (errors and warnings), in document order.
public struct ThemeValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public let issues: [ThemeIssue]

    public init(issues: [ThemeIssue]) { self.issues = issues }

    /// The issues that are errors.
    public var errors: [ThemeIssue] { issues.filter { $0.severity == .error } }

    public var description: String {
        "theme has \(errors.count) error(s): " + errors.map { "\($0.path): \($0.problem.message)" }.joined(separator: "; ")
    }
}
