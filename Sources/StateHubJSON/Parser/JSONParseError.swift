/// Why a text is not JSON the parser accepts, and where: byte offset, line and column, and
/// the path of the value being read.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: Reason
    /// Byte offset in the UTF-8 text.
    public var offset: Int
    /// 1-based line of `offset`.
    public var line: Int
    /// 1-based column of `offset`, in Unicode scalars.
    public var column: Int
    /// Keys and indices from the outermost value to the member being read; for a
    /// duplicate key, ending with that key.
    public var path: [JSONPathElement]

    public init(reason: Reason, offset: Int, line: Int, column: Int, path: [JSONPathElement] = []) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
    }

    /// `invalid JSON at line 1, column 5 (byte 4): expected ':' after a key`
    public var description: String { "invalid JSON at line \(line), column \(column) (byte \(offset)): \(reason)" }
}
