/// Why a `ThemeService` did not apply a theme, or could not finish applying one.
/// The service keeps its current theme in every case.
public enum ThemeServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source could not deliver a theme.
    case sourceFailed(ThemeSourceError)
    /// The cache could not be read or written.
    case cacheFailed(ThemeCacheError)
    /// The bytes from `origin` are not a theme.
    case undecodable(ThemeOrigin, ThemeDecodingError)
    /// The theme from `origin` has validation errors.
    case invalid(ThemeOrigin, ThemeValidationFailure)
    /// The theme from `origin` was made for another major version of the app.
    case incompatibleMajorVersion(ThemeOrigin, themeVersion: SemanticVersion, appMajorVersion: Int)
    /// A stylesheet target refused the new stylesheet.
    case injectionFailed(StyleSheetTargetID, reason: String)

    public var description: String {
        switch self {
        case .sourceFailed(let error): "\(error)"
        case .cacheFailed(let error): "\(error)"
        case .undecodable(let origin, let error): "theme from \(origin.rawValue) cannot be decoded: \(error)"
        case .invalid(let origin, let failure): "theme from \(origin.rawValue) is invalid: \(failure)"
        case .incompatibleMajorVersion(let origin, let version, let appMajor):
            "theme \(version) from \(origin.rawValue) is for app major version \(version.major), this app is \(appMajor)"
        case .injectionFailed(let target, let reason): "\(target) did not take the stylesheet: \(reason)"
        }
    }
}
