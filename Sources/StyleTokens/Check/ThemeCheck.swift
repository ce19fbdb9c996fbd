import Foundation

/// What `statehub theme check FILE` runs: read, decode, validate and resolve one theme file,
/// reporting every problem with its path. Never throws; an unreadable file is an issue too.
public enum ThemeCheck {
    /// Checks the theme at `fileURL`. At most `maximumSize` + 1 bytes are read: a larger file
    /// is refused (`ThemeDecodingError.tooLarge`) without being read whole.
    public static func run(_ fileURL: URL, maximumSize: Int = ThemeJSONDecoder().maximumSize) -> ThemeCheckReport {
        let fileName = fileURL.lastPathComponent
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: fileURL)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            let reason = FileManager.default.fileExists(atPath: fileURL.path) ? error.localizedDescription : "no such file \(fileURL.path)"
            return ThemeCheckReport(fileName: fileName, issues: [ThemeIssue(path: "$", problem: .unreadableFile(reason))], theme: nil)
        }
        guard data.count <= maximumSize else {
            let recorded = ((try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.size] as? NSNumber)?.intValue ?? 0
            let size = max(recorded, data.count) // a device or pipe has no recorded size
            let error = ThemeDecodingError.tooLarge(size: size, limit: maximumSize)
            return ThemeCheckReport(fileName: fileName, issues: [ThemeIssue(path: error.path, problem: .undecodable(error))], theme: nil)
        }
        return run(data: data, fileName: fileName)
    }

    /// Checks theme bytes; `fileName` only labels the summary line.
    public static func run(data: Data, fileName: String) -> ThemeCheckReport {
        let (issues, theme) = ThemeLoader.inspect(data)
        return ThemeCheckReport(fileName: fileName, issues: issues, theme: theme)
    }
}
