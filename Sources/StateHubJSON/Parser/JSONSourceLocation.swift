/// A 1-based line and column in a UTF-8 JSON text, for error messages.
///
/// Lines are counted at line feeds (a CRLF file counts the same); columns count Unicode
/// scalars, not UTF-8 bytes, so `é` moves the column by one.
public struct JSONSourceLocation: Hashable, Sendable {
    /// 1-based line.
    public let line: Int
    /// 1-based column, in Unicode scalars.
    public let column: Int

    /// The location of byte `offset` in `bytes`; an offset past the end is the end of the text.
    ///
    /// - Complexity: O(offset).
    public init(offset: Int, in bytes: some Collection<UInt8>) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(offset, 0)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 { // count scalars, not UTF-8 continuation bytes
                column += 1
            }
        }
        self.line = line
        self.column = column
    }
}
