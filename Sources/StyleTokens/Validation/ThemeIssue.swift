/// One problem in a theme and where it is.
public struct ThemeIssue: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value, e.g. `components.primaryButton.backgroundColor`
    /// (`$` for the whole document).
    public let path: String
    /// What is wrong.
    public let problem: ThemeProblem
    /// The 1-based line and column where the place starts in the file (a member at its key, a
    /// missing field at the member that lacks it), when the issue came from a file's text.
    public let line: Int?
    public let column: Int?

    public init(path: String, problem: ThemeProblem, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.problem = problem
        self.line = line
        self.column = column
    }

    init(_ path: ThemeJSONPath, _ problem: ThemeProblem) {
        self.init(path: path.description, problem: problem)
    }

    /// The same issue placed at `line` and `column`.
    func located(_ location: (line: Int, column: Int)?) -> ThemeIssue {
        guard let location else { return self }
        return ThemeIssue(path: path, problem: problem, line: location.line, column: location.column)
    }

    public var severity: ThemeIssueSeverity { problem.severity }

    /// `error: components.primaryButton.backgroundColor (12:7): unknown colour "primry": …`
    /// (a JSON structure problem names its line and column in its message instead).
    public var description: String {
        var place = path
        if let line, let column, !problem.messageNamesLocation { place += " (\(line):\(column))" }
        return "\(severity.rawValue): \(place): \(problem.message)"
    }
}
