import Hummingbird
import HummingbirdCore
import Logging

/// What the server's log lines hide: credentials never reach a log at any level
/// (docs/server.md, "Logging").
///
/// Matching is by shape, in any case and through one level of percent-encoding (the level the
/// server itself decodes), anywhere in a line: a `token` parameter's value (`?token=`, `?TOKEN=`,
/// `?to%6Ben=`), a `Bearer` credential, and every word with a token's prefix (`shk_`, `shd_`,
/// `%73hd_`), in a query, as a bare parameter or as a path segment.
enum LogRedaction {
    /// What a hidden value is written as.
    static let mask = "***"

    /// `uri` as logged: its path and query with every token hidden (``text(_:)``).
    static func uri(_ uri: URI) -> String {
        guard let query = uri.query, !query.isEmpty else { return text(uri.path) }
        return text(uri.path + "?" + query)
    }

    /// `text` with every `token=` value, `Bearer` credential and token-shaped word replaced by
    /// ``mask``. Runs only on lines that are written.
    ///
    /// Each letter of `token`, `shk_` and `shd_` is matched in either case, written plainly or
    /// percent-encoded (`(?:k|%6b|%4b)`; the pattern ignores case, so `%6B` too); a token's
    /// characters are base64url, any of them percent-encoded.
    static func text(_ text: String) -> String {
        guard mayHoldSecret(text) else { return text }
        var result = text
        // `token=` and its value, up to the next parameter, fragment, space or quote.
        result.replace(/((?:t|%74|%54)(?:o|%6f|%4f)(?:k|%6b|%4b)(?:e|%65|%45)(?:n|%6e|%4e)(?:=|%3d))[^&#\s"']*/.ignoresCase()) { match in
            String(match.output.1) + mask
        }
        result.replace(/(bearer\s+)[^\s"',]+/.ignoresCase()) { match in String(match.output.1) + mask }
        // A word with a token's prefix; the prefix stays, so the line still says which kind it was.
        result.replace(/((?:s|%73|%53)(?:h|%68|%48)(?:k|%6b|%4b|d|%64|%44)(?:_|%5f))(?:[A-Za-z0-9_\-]|%[0-9a-f]{2})+/.ignoresCase()) { match in
            String(match.output.1) + mask
        }
        return result
    }

    /// Cheap test before the patterns run: every form they match holds a `%` or one of these
    /// words in some case.
    private static func mayHoldSecret(_ text: String) -> Bool {
        guard !text.utf8.contains(UInt8(ascii: "%")) else { return true }
        let lowered = text.lowercased()
        return lowered.contains("token") || lowered.contains("bearer") || lowered.contains("shk_") || lowered.contains("shd_")
    }

    /// The event with its message and string metadata (nested ones too) redacted.
    static func event(_ event: LogEvent) -> LogEvent {
        var event = event
        event.message = Logger.Message(stringLiteral: text(event.message.description))
        if let metadata = event.metadata { event.metadata = metadata.mapValues(value) }
        return event
    }

    private static func value(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let string): .string(text(string))
        case .stringConvertible(let convertible): .string(text(convertible.description))
        case .array(let values): .array(values.map(Self.value))
        case .dictionary(let values): .dictionary(values.mapValues(Self.value))
        }
    }
}
