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

    /// 0 when valid, 1 otherwise: the CLI's exit status.
    public var exitCode: Int32 { isValid ? 0 : 1 }

    /// One line per issue (`error: <path>: <message>` / `warning: …`), then a summary line:
    /// `<file>: ok, theme <version>, <n> warning(s)` or `<file>: <n> error(s), <m> warning(s)`.
    public var lines: [String] {
        var lines = issues.map(\.description)
        let warningCount = Self.count(warnings.count, "warning")
        if let theme, isValid {
            lines.append("\(fileName): ok, theme \(theme.version), \(warningCount)")
        } else {
            lines.append("\(fileName): \(Self.count(errors.count, "error")), \(warningCount)")
        }
        return lines
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
