/// An update, state vector or value that could not be read: what was wrong and where.
///
/// A struct over a private kind so that new kinds can be added without breaking callers
/// who switch on ``Kind`` with a `default`.
public struct UpdateDecodingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was wrong.
    public enum Kind: Equatable, Sendable {
        /// The input ended inside a value.
        case truncated
        /// A number over 53 bits, or a clock range past 2⁵³.
        case overflow
        /// A count or length larger than what the remaining bytes can hold.
        case invalidLength
        /// A content reference Yjs does not define.
        case unknownContentRef(Int)
        /// A shared-type reference Yjs does not define.
        case unknownTypeRef(Int)
        /// A string that is not UTF-8.
        case invalidUTF8
        /// An `Any` value nested deeper than ``UpdateDecodingError/maximumNesting``.
        case nestingTooDeep
        /// Well-formed bytes that describe an impossible document.
        case invalidStructure(String)
        /// A Yjs update in format v2 (`encodeStateAsUpdateV2`) given to a function that reads
        /// v1: recognised by its framing and refused. The `…V2` functions read it.
        case formatV2
    }

    /// Nesting limit for `Any` values and shared types (the project's depth agreement).
    public static let maximumNesting = 512

    public let kind: Kind
    /// Byte offset in the input where the problem was found.
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        switch kind {
        case .truncated: return "update truncated at byte \(offset)"
        case .overflow: return "number too large at byte \(offset)"
        case .invalidLength: return "length larger than the remaining input at byte \(offset)"
        case .unknownContentRef(let ref): return "unknown content ref \(ref) at byte \(offset)"
        case .unknownTypeRef(let ref): return "unknown type ref \(ref) at byte \(offset)"
        case .invalidUTF8: return "string is not UTF-8 at byte \(offset)"
        case .nestingTooDeep: return "value nested deeper than \(Self.maximumNesting) levels at byte \(offset)"
        case .invalidStructure(let reason): return "invalid update structure at byte \(offset): \(reason)"
        case .formatV2: return "a Yjs update in format v2 (encodeStateAsUpdateV2) where v1 is read: apply it with applyUpdateV2, or convert it with Updates.convertV2ToV1"
        }
    }
}
