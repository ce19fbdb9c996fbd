/// What ``JSONParser`` accepts beyond RFC 8259's grammar, and how strictly.
///
/// The defaults read what `JSON.parse` reads, the way it reads it, with one cap: a repeated
/// key keeps the last value, a lone `\u` surrogate becomes U+FFFD, `1e999` is infinity, and
/// nesting stops at ``defaultMaximumDepth`` levels.
public struct JSONParsingOptions: Sendable, Hashable {
    /// What to do with a key an object already has.
    public enum DuplicateKeys: Sendable, Hashable {
        /// The last value wins, at the first key's position (as `JSON.parse`).
        case useLast
        /// The text is refused: ``JSONParseError/Reason/duplicateKey(_:)`` with its path.
        case refuse
    }

    /// What to do with a `\u` escape of half a surrogate pair.
    public enum LoneSurrogates: Sendable, Hashable {
        /// Replaced by U+FFFD, as JavaScriptCore does when it hands a string to UTF-8.
        case replace
        /// The text is refused: ``JSONParseError/Reason/loneSurrogate`` or
        /// ``JSONParseError/Reason/invalidSurrogatePair``.
        case refuse
    }

    /// Which numbers are accepted.
    public enum NumberRange: Sendable, Hashable {
        /// Any: beyond `Double`'s range is ±infinity (as `JSON.parse`), written back as `null`.
        case unbounded
        /// Only numbers that are finite as a `Double`; others are
        /// ``JSONParseError/Reason/numberOutOfRange(_:)``. Underflow to zero is accepted.
        case finite
    }

    /// The depth ``JSONValue``'s `Codable` conformance and the default options stop at.
    public static let defaultMaximumDepth = 512

    public var duplicateKeys: DuplicateKeys
    public var loneSurrogates: LoneSurrogates
    public var numberRange: NumberRange
    /// Values may nest this many levels, the outermost value being level 1: with 2,
    /// `[[]]` and `[1]` are read, `[[1]]` is ``JSONParseError/Reason/tooDeep(maximum:)``.
    /// Parsing itself uses no recursion; the cap keeps the values it builds shallow enough
    /// to free and to hand to recursive code elsewhere.
    public var maximumDepth: Int
    /// Whether a UTF-8 byte-order mark at the start is skipped (line and column still count it).
    public var skipsByteOrderMark: Bool

    public init(
        duplicateKeys: DuplicateKeys = .useLast,
        loneSurrogates: LoneSurrogates = .replace,
        numberRange: NumberRange = .unbounded,
        maximumDepth: Int = JSONParsingOptions.defaultMaximumDepth,
        skipsByteOrderMark: Bool = false
    ) {
        self.duplicateKeys = duplicateKeys
        self.loneSurrogates = loneSurrogates
        self.numberRange = numberRange
        self.maximumDepth = maximumDepth
        self.skipsByteOrderMark = skipsByteOrderMark
    }
}
