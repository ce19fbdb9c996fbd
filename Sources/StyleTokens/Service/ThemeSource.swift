import Foundation

/// Where newer themes come from: a directory now, the theme server later.
///
/// A source serves one theme per app major version, so that a theme made for a newer app
/// never reaches an older one; `ThemeService` checks the answer's major version anyway.
public protocol ThemeSource: Sendable {
    /// The current theme for apps whose version has major `majorVersion`, as JSON bytes.
    func fetchTheme(forMajorVersion majorVersion: Int) async throws(ThemeSourceError) -> Data
}
