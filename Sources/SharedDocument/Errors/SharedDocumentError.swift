/// A local edit that cannot be made (an index past the end, a type used as the wrong kind).
public struct SharedDocumentError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Equatable, Sendable {
        /// An index or range past the end of an array or text.
        case indexOutOfRange(index: Int, length: Int)
        /// A root asked for as one kind that the document already holds as another.
        case kindMismatch(name: String, existing: String, requested: String)
        /// The type was deleted (its parent removed it); it cannot be edited any more.
        case typeDeleted
        /// A value nested deeper than the project's limit.
        case nestingTooDeep
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .indexOutOfRange(let index, let length): return "index \(index) out of range (length \(length))"
        case .kindMismatch(let name, let existing, let requested): return "root '\(name)' is a \(existing), not a \(requested)"
        case .typeDeleted: return "the shared type was deleted"
        case .nestingTooDeep: return "value nested deeper than \(UpdateDecodingError.maximumNesting) levels"
        }
    }
}
