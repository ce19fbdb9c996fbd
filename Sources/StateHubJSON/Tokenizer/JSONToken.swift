/// One token of a JSON text: its kind and the bytes it covers.
public struct JSONToken: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable {
        case beginObject, endObject, beginArray, endArray, comma, colon
        case string, number, `true`, `false`, null
        /// A byte that starts no token (the range covers it).
        case invalid
        /// The end of the text (an empty range there).
        case end
    }

    public var kind: Kind
    /// Byte offsets in the text; a string's range includes its quotes.
    public var range: Range<Int>
    /// For a string: whether it has escapes, and so needs decoding, not just copying.
    public var hasEscapes: Bool
    /// For a number of at most 15 significant digits whose power of ten is within ±22: its
    /// value (read while scanning, so the parser need not read it again); otherwise NaN.
    var simpleNumber: Double

    init(kind: Kind, range: Range<Int>, hasEscapes: Bool = false, simpleNumber: Double = .nan) {
        self.kind = kind
        self.range = range
        self.hasEscapes = hasEscapes
        self.simpleNumber = simpleNumber
    }

    /// Whether a value starts with this token.
    public var startsValue: Bool {
        switch kind {
        case .beginObject, .beginArray, .string, .number, .true, .false, .null: true
        case .endObject, .endArray, .comma, .colon, .invalid, .end: false
        }
    }
}
