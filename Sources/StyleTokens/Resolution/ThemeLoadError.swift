/// Why theme bytes did not become a `ResolvedTheme`.
public enum ThemeLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON, or not shaped like a theme.
    case undecodable(ThemeDecodingError)
    /// Decoded, but validation found errors.
    case invalid(ThemeValidationFailure)

    public var description: String {
        switch self {
        case .undecodable(let error): "cannot decode theme: \(error)"
        case .invalid(let failure): "invalid theme: \(failure)"
        }
    }
}
