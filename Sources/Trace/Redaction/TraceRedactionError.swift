/// A redaction setting that could not be read.
public enum TraceRedactionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `STORE.ACTION:INDEX`.
    case badArgumentPosition(String)

    public var description: String {
        switch self {
        case .badArgumentPosition(let spec): "an argument to redact is STORE.ACTION:INDEX (e.g. session.login:1), not \(spec)"
        }
    }
}
