/// Why `statehub bench crdt --trace FILE` cannot replay a trace file: named before any
/// implementation runs, so a bad trace is one message and not a crash or a failed peer.
enum CRDTTraceError: Error, CustomStringConvertible {
    /// `gzip -dc` failed on a file that starts like gzip.
    case notGzip(status: Int32)
    /// Not `{"txns":[{"patches":[[position, deleteCount, "text"], …]}, …]}`.
    case notATrace(String)
    /// A patch that does not fit the document the patches before it leave (lengths in UTF-16
    /// code units, as the josephg/editing-traces ascii_only files and Yjs count them).
    case patchOutOfRange(transaction: Int, patch: Int, position: Int, delete: Int, length: Int)

    var description: String {
        switch self {
        case .notGzip(let status): "the file starts like gzip but gzip -dc failed (exit \(status))"
        case .notATrace(let why): "not a josephg/editing-traces file ({\"txns\":[{\"patches\":[[pos, del, text]]}]}): \(why)"
        case .patchOutOfRange(let transaction, let patch, let position, let delete, let length):
            "txns[\(transaction)].patches[\(patch)] = [\(position), \(delete), …] does not fit a document of length \(length)"
        }
    }
}
