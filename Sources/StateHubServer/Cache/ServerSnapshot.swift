import Foundation
import NIOCore
import StyleTokens

/// Everything mutable the read routes need, built from one `StoredState` and immutable until
/// the next generation.
struct ServerSnapshot: Sendable {
    struct AppView: Sendable {
        var name: String
        /// The release row now current (its entity tag is ``ReleaseTag/tag(_:)``).
        var releaseID: Int?
        var release: ReleaseSpec?
        var pinned: String?
        var versions: [String: StoredVersion]
        var candidates: [String: ReleaseResolver.Candidate]
        var ascending: [(text: String, candidate: ReleaseResolver.Candidate)]
    }

    struct ThemeView: Sendable {
        var version: String
        var major: Int
        var sha256: String
        var entityTag: String
        var body: ByteBuffer
        /// The theme's CSS custom properties (ThemeCSS), for the loader page.
        var css: String
    }

    var generation: Int
    var apps: [String: AppView]
    /// The newest published theme per major version.
    var currentThemes: [Int: ThemeView]
    /// The newest published theme of all.
    var newestTheme: ThemeView?
    /// Every published theme by version.
    var publishedThemes: [String: StoredTheme]

    static func build(from state: StoredState, content: ContentCache) async throws -> ServerSnapshot {
        var apps: [String: AppView] = [:]
        for app in state.apps {
            apps[app.name] = AppView(name: app.name, releaseID: app.releaseID, release: app.release, pinned: app.pinnedVersion,
                                     versions: [:], candidates: [:], ascending: [])
        }
        for version in state.versions {
            guard let semver = VersionText.parse(version.version),
                  let minimum = VersionText.parse(version.minNativeVersion) else { continue }
            let candidate = ReleaseResolver.Candidate(version: semver, minNativeVersion: minimum)
            apps[version.app]?.versions[version.version] = version
            apps[version.app]?.candidates[version.version] = candidate
            apps[version.app]?.ascending.append((version.version, candidate))
        }
        for name in apps.keys { apps[name]?.ascending.sort { $0.candidate.version < $1.candidate.version } }

        var published: [String: StoredTheme] = [:]
        var newestPerMajor: [Int: (SemanticVersion, StoredTheme)] = [:]
        for theme in state.themes where theme.published {
            published[theme.version] = theme
            guard let semver = VersionText.parse(theme.version) else { continue }
            if let current = newestPerMajor[theme.major], !(current.0 < semver) { continue }
            newestPerMajor[theme.major] = (semver, theme)
        }
        var currentThemes: [Int: ThemeView] = [:]
        var newest: (SemanticVersion, ThemeView)?
        for (major, entry) in newestPerMajor {
            guard let body = try await content.bytes(entry.1.sha256) else { continue }
            let css = (try? ThemeLoader.load(Data(body.readableBytesView))).map(ThemeCSS.stylesheet(for:)) ?? ""
            let view = ThemeView(version: entry.1.version, major: major, sha256: entry.1.sha256,
                                 entityTag: EntityTag.quoted(entry.1.sha256), body: body, css: css)
            currentThemes[major] = view
            if let best = newest, !(best.0 < entry.0) { continue }
            newest = (entry.0, view)
        }
        return ServerSnapshot(generation: state.generation, apps: apps, currentThemes: currentThemes,
                              newestTheme: newest?.1, publishedThemes: published)
    }
}
