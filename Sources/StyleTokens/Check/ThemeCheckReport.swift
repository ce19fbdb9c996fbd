/// The result of checking one theme file: every issue with its path, and the resolved theme
/// when there are no errors. What `statehub theme check FILE` prints is `lines`.
public struct ThemeCheckReport: Sendable, Hashable {
    /// The file name as given (used in the summary line).
    public let fileName: String
    /// Every issue in document order; a file that cannot be read or decoded has exactly one.
    public let issues: [ThemeIssue]
    /// The resolved theme, present exactly when `errors` is empty.
    public let theme: ResolvedTheme?

    public init(fileName: String, issues: [ThemeIssue], theme: ResolvedTheme?) {
        self.fileName = fileName
        self.issues = issues
        self.theme = theme
    }

    public var errors: [ThemeIssue] { issues.filter { $0.severity == .error } }
    public var warnings: [ThemeIssue] { issues.filter { $0.severity == .warning } }

    /// True when the theme has no errors and would be applied.
    public var isValid: Bool { theme != nil && errors.isEmpty }

    /// False when the file could not be read or parsed as JSON (a syntax error, a duplicate
    /// key, not UTF-8, too large): the schema and the values were not checked, so fixing
    /// the issues listed may reveal more.
    public var schemaChecked: Bool {
        !issues.contains { issue in
            switch issue.problem {
            case .unreadableFile: true
            case .undecodable(let error): error.stopsSchemaChecks
            default: false
            }
        }
    }

    /// 0 when valid, 1 when the theme has errors, 2 when the file cannot be read (as every
    /// `statehub` command exits for an unreadable file): the CLI's exit status.
    public var exitCode: Int32 {
        if isValid { return 0 }
        if issues.contains(where: { if case .unreadableFile = $0.problem { true } else { false } }) { return 2 }
        return 1
    }

    /// One line per issue (`error: <path>: <message>` / `warning: …`), then a summary line:
    /// `<file>: ok, theme <version>, <n> warning(s)` or `<file>: <n> error(s), <m> warning(s)`,
    /// which says so when the schema checks did not run (``schemaChecked``).
    public var lines: [String] {
        var lines = issues.map(\.description)
        let warningCount = Self.count(warnings.count, "warning")
        if let theme, isValid {
            lines.append("\(fileName): ok, theme \(theme.version), \(warningCount)")
        } else {
            lines.append("\(fileName): \(Self.count(errors.count, "error")), \(warningCount)"
                + (schemaChecked ? "" : " (the JSON could not be read, so the schema and the values were not checked: fix these and check again)"))
        }
        return lines
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
