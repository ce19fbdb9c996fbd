/// What a trace hides: sensitive member names (any case) everywhere, operations whose path
/// passes through one, action arguments by position (configured, and by default those whose
/// parameter name, sent by the page in `actionParameters`, is sensitive), and every later echo of a hidden
/// value (error messages, notes, copies inside refused messages), plus credentials in
/// URLs. `null` and absent values stay what they were. See docs/trace.md, "Redaction".
///
/// ```swift
/// var redaction = TraceRedaction()                        // the default names
/// redaction.arguments["session.login"] = [1]              // login(user, password)
/// let recorder = try TraceRecorder(filePath: path, redactor: redaction.redactor)
/// ```
public struct TraceRedaction: Sendable {
    /// Names hidden by default, compared ignoring case (so `authToken` covers `AuthToken` and
    /// `AUTHTOKEN`; `auth_token` and `auth-token` are spellings of their own).
    public static let defaultKeys: [String] = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
        "token", "access_token", "accessToken", "refresh_token", "refreshToken", "id_token", "idToken",
        "auth_token", "authToken", "x-auth-token", "session_token", "sessionToken", "bearer", "jwt",
        "csrf_token", "csrfToken", "x-csrf-token", "xsrf_token", "xsrfToken", "x-xsrf-token",
        "apiKey", "api_key", "x-api-key", "api_secret", "apiSecret", "secret_key", "secretKey",
        "password", "passwd", "passphrase", "passcode", "new_password", "newPassword", "old_password", "oldPassword",
        "secret", "client_secret", "clientSecret", "private_key", "privateKey", "credentials", "credential",
        "pin", "otp", "totp", "one_time_code", "oneTimeCode", "mfa_code", "mfaCode", "security_code", "securityCode", "cvv", "cvc",
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
        let scanner = RecordRedactor(keys: keys, arguments: arguments, report: nil)
        return { _, type, message in scanner.redact(type: type, message) }
    }

    /// A redactor that also says, through `report`, which positional action arguments were
    /// written in clear before their value turned out to be a secret (docs/trace.md,
    /// "Positional arguments"): a trace cannot take back what it already wrote, so the owner
    /// warns and names the `--redact-argument` that would have hidden it.
    public func redactor(reporting report: RedactionReport) -> Redactor {
        let scanner = RecordRedactor(keys: keys, arguments: arguments, report: report)
        return { _, type, message in scanner.redact(type: type, message) }
    }
}
