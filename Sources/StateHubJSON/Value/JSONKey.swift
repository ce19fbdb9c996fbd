/// An object key, compared as JavaScript compares property names: code unit by code unit.
///
/// Swift's `String` equality follows Unicode canonical equivalence, so `"é"` (U+00E9) and
/// `"e\u{301}"` would be one key; to JavaScript they are two properties. A `JSONKey` keeps
/// them apart, in mirrors, themes and anything else built on ``JSONValue``. Keys from the
/// parser are valid Unicode (lone surrogates become U+FFFD or are refused), so comparing
/// UTF-8 bytes gives the same answer as comparing UTF-16 code units.
///
/// A string literal is a key: `members["count"]`.
public struct JSONKey: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The key's text.
    public let string: String

    /// The key with this text, exactly as written (no normalisation).
    @inlinable public init(_ string: String) { self.string = string }

    @inlinable public init(stringLiteral value: String) { self.string = value }

    public var description: String { string }
    public var debugDescription: String { string.debugDescription }

    /// Equal when the code units are equal.
    ///
    /// `String`'s own comparison answers first (fast, and false for most unequal keys);
    /// only when it says equal are the bytes compared, to tell canonically equivalent
    /// spellings apart.
    /// - Complexity: O(n) in the shorter key.
    @inlinable public static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.string == rhs.string && lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    /// `String`'s hash: keys equal here are equal as `String`s, so they hash alike.
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }

    /// Ordered as JavaScript's default `sort()` orders strings: by UTF-16 code units.
    public static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.string.utf16.lexicographicallyPrecedes(rhs.string.utf16)
    }
}
