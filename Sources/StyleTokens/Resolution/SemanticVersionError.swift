/// Why a string is not a semantic version (https://semver.org, 2.0.0).
public enum SemanticVersionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The core is not three dot-separated numbers.
    case notThreeNumbers
    /// A numeric part has a leading zero or is too large.
    case invalidNumber(String)
    /// A pre-release or build identifier is empty or has characters outside `[0-9A-Za-z-]`.
    case invalidIdentifier(String)

    public var description: String {
        switch self {
        case .notThreeNumbers: "expected MAJOR.MINOR.PATCH, e.g. 1.1.0"
        case .invalidNumber(let text): "'\(text)' is not a number without leading zeros"
        case .invalidIdentifier(let text): "'\(text)' is not a valid pre-release or build identifier"
        }
    }
}
