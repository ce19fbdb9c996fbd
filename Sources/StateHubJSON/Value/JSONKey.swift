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
    /// - Complexity: O(n) in the shorter key.
    public static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        var left = lhs.string.utf8
        var right = rhs.string.utf8
        guard left.count == right.count else { return false }
        let fast = left.withContiguousStorageIfAvailable { l in
            right.withContiguousStorageIfAvailable { r in l.elementsEqual(r) }
        }
        if let fast, let equal = fast { return equal }
        left = lhs.string.utf8
        right = rhs.string.utf8
        return left.elementsEqual(right)
    }

    public func hash(into hasher: inout Hasher) {
        let utf8 = string.utf8
        hasher.combine(utf8.count)
        let hashed: Void? = utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }

    /// Ordered as JavaScript's default `sort()` orders strings: by UTF-16 code units.
    public static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.string.utf16.lexicographicallyPrecedes(rhs.string.utf16)
    }
}
