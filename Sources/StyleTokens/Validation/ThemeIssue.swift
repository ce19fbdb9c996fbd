/// One problem in a theme and where it is.
public struct ThemeIssue: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value, e.g. `components.primaryButton.backgroundColor`
    /// (`$` for the whole document).
    public let path: String
    /// What is wrong.
    public let problem: ThemeProblem

    public init(path: String, problem: ThemeProblem) {
        self.path = path
        self.problem = problem
    }

    init(_ path: ThemeJSONPath, _ problem: ThemeProblem) {
        self.init(path: path.description, problem: problem)
    }

    public var severity: ThemeIssueSeverity { problem.severity }

    /// `error: components.primaryButton.backgroundColor: unknown colour "primry": …`
    public var description: String { "\(severity.rawValue): \(path): \(problem.message)" }
}
