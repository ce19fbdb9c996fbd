/// What was wrong with a trace file.
public enum TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Line `line` (1-based, counting every line of the file) is not a valid record;
    /// `reason` says why, e.g. `is not valid JSON` or `lacks field "direction"`.
    case invalidLine(line: Int, reason: String)
    /// Line `line` is longer than `limit` bytes (the reader's `maximumLineBytes`); it was
    /// not read further.
    case lineTooLong(line: Int, limit: Int)
    /// The file at `path` could not be read (missing, a directory, no permission, …).
    case unreadable(path: String)
    /// The file at `path` could not be written; `reason` is the system's message.
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidLine(let line, let reason):
            "trace line \(line) \(reason)"
        case .lineTooLong(let line, let limit):
            "trace line \(line) is longer than \(limit) bytes, the longest line read (raise it with --max-line-bytes)"
        case .unreadable(let path):
            "cannot read trace file \(path)"
        case .unwritable(let path, let reason):
            "cannot write trace file \(path): \(reason)"
        }
    }
}
