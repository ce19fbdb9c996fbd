/// Where the theme a `ThemeService` holds came from.
public enum ThemeOrigin: String, Sendable, Hashable {
    /// The default compiled into the app.
    case bundledDefault
    /// The last good theme from a previous run, read from the cache directory.
    case cache
    /// Fetched from the `ThemeSource` during this run.
    case source
}
