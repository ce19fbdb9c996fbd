/// What a trace hides: sensitive member names (any case) everywhere, operations whose path
/// passes through one, action arguments by position, and every later echo of a hidden
/// value (error messages, notes, copies inside refused messages), plus credentials in
/// URLs. `null` and absent values stay what they were. See docs/trace.md, "Redaction".
///
/// ```swift
/// var redaction = TraceRedaction()                        // the default names
/// redaction.arguments["session.login"] = [1]              // login(user, password)
/// let recorder = try TraceRecorder(filePath: path, redactor: redaction.redactor)
/// ```
public struct TraceRedaction: Sendable {
    /// Names hidden by default, compared ignoring case.
    public static let defaultKeys: [String] = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
        "token", "access_token", "accessToken", "refresh_token", "refreshToken", "id_token", "idToken",
        "session_token", "sessionToken", "apiKey", "api_key", "x-api-key",
        "password", "passwd", "secret", "client_secret", "clientSecret", "private_key", "privateKey",
    ]

    /// Member names whose values are hidden, at any depth, in any case.
    public var keys: Set<String>
    /// `"STORE.ACTION"` → the 0-based positions of the arguments to hide in its
    /// `dispatch_action` messages.
    public var arguments: [String: Set<Int>]

    public init(keys: some Sequence<String> = TraceRedaction.defaultKeys, arguments: [String: Set<Int>] = [:]) {
        self.keys = Set(keys.map { $0.lowercased() })
        self.arguments = arguments
    }

    /// Adds names and `STORE.ACTION:INDEX` argument positions (as the CLI's
    /// `--redact-key` / `--redact-argument` give them).
    public mutating func add(keys more: [String], arguments specs: [String]) throws(TraceRedactionError) {
        for key in more where !key.isEmpty { keys.insert(key.lowercased()) }
        for spec in specs {
            guard let colon = spec.lastIndex(of: ":"), let index = Int(spec[spec.index(after: colon)...]), index >= 0 else {
                throw .badArgumentPosition(spec)
            }
            let target = String(spec[..<colon])
            let parts = target.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .badArgumentPosition(spec) }
            arguments[target, default: []].insert(index)
        }
    }

    /// The redactor for ``TraceRecorder``. Each call makes a new one, with its own memory of
    /// hidden values: use one per recorder.
    public var redactor: Redactor {
        let scanner = RecordRedactor(keys: keys, arguments: arguments)
        return { _, type, message in scanner.redact(type: type, message) }
    }
}
