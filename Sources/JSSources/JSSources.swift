/// The JavaScript that ships inside StateHub: everything under the repository's `js/`
/// folder, embedded at build time by the `EmbedJS` plugin (see docs/layout.md).
///
/// Embedding keeps an installed `statehub` binary self-contained: it needs no build
/// folder and no source tree beside it.
public enum JSSources {
    /// The text of one embedded file, by its path relative to `js/` (`"runtime/pinia.js"`).
    ///
    /// - Complexity: O(1) on average.
    public static func file(_ path: String) -> String? { files[path] }
}
