import Foundation

extension TraceFile {
    /// What ``TraceFile/readRecovering(from:maximumLineBytes:)`` found.
    public struct Recovered: Sendable, Equatable {
        /// Every record of the complete lines, in file order.
        public var records: [TraceRecord]
        /// The 1-based number of the last line when it was cut (no final newline, and its JSON
        /// ends before its value does: the writer was killed mid-line); it is left out of
        /// `records`. A complete last line that is not a record is an error, newline or not.
        public var cutLine: Int?
    }

    /// Reads a trace that may end in a cut line, as a killed process leaves it: the cut
    /// line is reported in ``Recovered/cutLine`` and every complete line is read. Any other
    /// bad line still fails the read.
    ///
    /// - Throws: ``TraceFileError/unreadable(path:)``, ``TraceFileError/invalidLine(line:reason:)``,
    ///   ``TraceFileError/lineTooLong(line:limit:)``.
    public static func readRecovering(from path: String, maximumLineBytes: Int = defaultMaximumLineBytes) throws(TraceFileError) -> Recovered {
        try scan(path: path, recovering: true, maximumLineBytes: maximumLineBytes)
    }

    /// ``readRecovering(from:maximumLineBytes:)`` for bytes already in memory.
    public static func decodeRecovering(_ data: Data, maximumLineBytes: Int = defaultMaximumLineBytes) throws(TraceFileError) -> Recovered {
        var scanner = LineScanner(recovering: true, maximumLineBytes: maximumLineBytes)
        try scanner.feed([UInt8](data))
        return try scanner.finish()
    }
}
