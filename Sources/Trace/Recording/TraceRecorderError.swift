/// Why a ``TraceRecorder`` could not write its NDJSON file.
public enum TraceRecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace file at `path` could not be created or opened for writing.
    case cannotOpen(path: String, reason: String)
    /// Writing to the trace file at `path` failed; the file stops growing from then on
    /// (records are still kept in memory).
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open trace file \(path): \(reason)"
        case .writeFailed(let path, let reason): "cannot write trace file \(path): \(reason)"
        }
    }
}
