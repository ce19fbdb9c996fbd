import Foundation

/// The last good theme per app major version, kept as the exact bytes that were accepted
/// (`<directory>/theme-v<major>.json`), so unknown keys and file order survive.
///
/// Writes are atomic: the bytes go to a temporary file in the same directory, which then
/// replaces the old file by rename. A reader (or a crash) sees the old file or the new one,
/// never a truncated mix.
public struct ThemeCache: Sendable {
    /// The directory holding cached themes; created on first write.
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// Where the theme for `majorVersion` is cached.
    public func fileURL(forMajorVersion majorVersion: Int) -> URL {
        directory.appendingPathComponent("theme-v\(majorVersion).json")
    }

    /// The cached bytes for `majorVersion`, or nil when nothing is cached.
    public func load(majorVersion: Int) throws(ThemeCacheError) -> Data? {
        let url = fileURL(forMajorVersion: majorVersion)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Replaces the cached theme for `majorVersion` atomically.
    public func store(_ data: Data, majorVersion: Int) throws(ThemeCacheError) {
        let url = fileURL(forMajorVersion: majorVersion)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw .unwritable(path: url.path, reason: error.localizedDescription)
        }
    }
}
