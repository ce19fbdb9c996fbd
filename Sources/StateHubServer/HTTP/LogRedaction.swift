import Hummingbird
import HummingbirdCore
import Logging

/// What the server's log lines hide: credentials never reach a log at any level
/// (docs/server.md, "Logging").
enum LogRedaction {
    /// What a hidden value is written as.
    static let mask = "***"

    /// `uri` as logged: the value of every `token` query parameter replaced by ``mask``.
    static func uri(_ uri: URI) -> String {
        guard let query = uri.query, !query.isEmpty else { return uri.path }
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            let name = parameter.prefix { $0 != "=" }
            return name == "token" ? "token=" + mask : String(parameter)
        }
        return uri.path + "?" + parameters.joined(separator: "&")
    }

    /// `text` with every `token=` value, `Bearer` credential and token-shaped word
    /// (`shk_…`, `shd_…`) replaced by ``mask``. Runs only on lines that are written.
    static func text(_ text: String) -> String {
        guard text.contains("token=") || text.contains("Bearer ") || text.contains("bearer ")
            || text.contains("shk_") || text.contains("shd_") else { return text }
        var result = text
        result.replace(/(token=)[^&#\s"']*/) { match in String(match.output.1) + mask }
        result.replace(/([Bb]earer\s+)[^\s"',]+/) { match in String(match.output.1) + mask }
        result.replace(/(sh[kd]_)[A-Za-z0-9_\-]+/) { match in String(match.output.1) + mask }
        return result
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
