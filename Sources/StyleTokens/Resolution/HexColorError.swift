/// Why a string is not a hex colour (`#RGB`, `#RRGGBB` or `#RRGGBBAA`).
public enum HexColorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text does not start with `#`.
    case missingHash
    /// The number of digits after `#` is not 3, 6 or 8.
    case wrongDigitCount(Int)
    /// A character after `#` is not a hex digit.
    case invalidDigit(Character)

    public var description: String {
        switch self {
        case .missingHash: "a hex colour starts with #"
        case .wrongDigitCount(let count): "expected 3, 6 or 8 hex digits after #, found \(count)"
        case .invalidDigit(let character): "'\(character)' is not a hex digit"
        }
    }
}
