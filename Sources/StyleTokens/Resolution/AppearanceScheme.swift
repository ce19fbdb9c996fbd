/// Light or dark appearance.
public enum AppearanceScheme: String, Sendable, Hashable, CaseIterable {
    case light
    case dark
}
