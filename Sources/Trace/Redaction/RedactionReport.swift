import Synchronization

/// What a ``TraceRedaction`` redactor could not hide: action arguments passed by position
/// (`login("Ana", "hunter22")`) that were recorded in clear, because nothing said they were
/// secret, and whose value later appeared under a secret name (the store's `password`, a
/// `token` a reply carried). From then on the value is hidden wherever it appears; the
/// records written before keep it. The owner warns (the CLI on stderr) and names the
/// `--redact-argument STORE.ACTION:INDEX` that would have hidden it.
public final class RedactionReport: Sendable {
    private let found = Mutex<[String]>([])

    public init() {}

    /// `STORE.ACTION:INDEX` of each argument written in clear before its value became a
    /// secret, oldest first, each once.
    public var argumentsWrittenInClear: [String] { found.withLock { $0 } }

    func add(_ spec: String) {
        found.withLock { if !$0.contains(spec) { $0.append(spec) } }
    }
}
