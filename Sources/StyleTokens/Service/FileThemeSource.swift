import Foundation

/// Reads themes from files: `<directory>/v<major>.json` (the layout the HTTP source will mirror
/// as `/themes/v<major>.json`), or one fixed file whatever the major version.
public struct FileThemeSource: ThemeSource {
    private let locate: @Sendable (Int) -> URL

    /// Themes at `<directory>/v<major>.json`.
    public init(directory: URL) {
        locate = { major in directory.appendingPathComponent("v\(major).json") }
    }

    /// Always `fileURL`; the service still rejects it if its major version does not match.
    public init(fileURL: URL) {
        locate = { _ in fileURL }
    }

    /// The file for `majorVersion`.
    public func fileURL(forMajorVersion majorVersion: Int) -> URL { locate(majorVersion) }

    public func fetchTheme(forMajorVersion majorVersion: Int) async throws(ThemeSourceError) -> Data {
        let url = locate(majorVersion)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .notFound(location: url.path) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(location: url.path, reason: error.localizedDescription)
        }
    }
}
