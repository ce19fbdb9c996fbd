import StyleTokens

/// Parses a version from outside (a URL, a body): at most 64 characters, then strict semver.
enum VersionText {
    static let maxLength = 64

    static func parse(_ text: some StringProtocol) -> SemanticVersion? {
        guard text.utf8.count <= maxLength else { return nil }
        return try? SemanticVersion(parsing: String(text))
    }
}
