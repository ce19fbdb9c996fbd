import Foundation

/// What `statehub theme check FILE` runs: read, decode, validate and resolve one theme file,
/// reporting every problem with its path. Never throws; an unreadable file is an issue too.
public enum ThemeCheck {
    /// Checks the theme at `fileURL`.
    public static func run(_ fileURL: URL) -> ThemeCheckReport {
        let fileName = fileURL.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            let reason = FileManager.default.fileExists(atPath: fileURL.path) ? error.localizedDescription : "no such file \(fileURL.path)"
            return ThemeCheckReport(fileName: fileName, issues: [ThemeIssue(path: "$", problem: .unreadableFile(reason))], theme: nil)
        }
        return run(data: data, fileName: fileName)
    }

    /// Checks theme bytes; `fileName` only labels the summary line.
    public static func run(data: Data, fileName: String) -> ThemeCheckReport {
        let (issues, theme) = ThemeLoader.inspect(data)
        return ThemeCheckReport(fileName: fileName, issues: issues, theme: theme)
    }
}
