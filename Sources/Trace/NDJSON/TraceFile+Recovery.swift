import Foundation

extension TraceFile {
    /// What ``readRecovering(from:)`` found.
    public struct Recovered: Sendable, Equatable {
        /// Every record of the complete lines, in file order.
        public var records: [TraceRecord]
        /// The 1-based number of the last line when it was cut (no final newline and not a
        /// whole record: the writer was killed mid-line); it is left out of `records`.
        public var cutLine: Int?
    }

    /// Reads a trace that may end in a cut line, as a killed process leaves it: the cut
    /// line is reported in ``Recovered/cutLine`` and every complete line is read. Any other
    /// bad line still fails the read.
    ///
    /// - Throws: ``TraceFileError/unreadable(path:)``, ``TraceFileError/invalidLine(line:reason:)``.
    public static func readRecovering(from path: String) throws(TraceFileError) -> Recovered {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path)
        }
        return try decodeRecovering(data)
    }

    /// ``readRecovering(from:)`` for bytes already in memory.
    public static func decodeRecovering(_ data: Data) throws(TraceFileError) -> Recovered {
        do {
            return Recovered(records: try decode(data), cutLine: nil)
        } catch {
            guard case .invalidLine(let line, _) = error, data.last != UInt8(ascii: "\n") else { throw error }
            let lastNewline = data.lastIndex(of: UInt8(ascii: "\n"))
            let linesBefore = data[..<(lastNewline ?? data.startIndex)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } + (lastNewline == nil ? 0 : 1)
            // Only the last line may be cut; a bad line before it is a real error.
            guard line == linesBefore + 1 else { throw error }
            let complete = lastNewline.map { data[...$0] } ?? Data()
            return Recovered(records: try decode(Data(complete)), cutLine: line)
        }
    }
}
