/// Decides what text of a message is kept in the trace.
///
/// Called by ``TraceRecorder/record(_:channel:engine:store:type:seq:message:note:)``
/// once per message, before the record is stored, with the message's channel,
/// type and full text; returns the text to store (return `message` itself to keep
/// it). It runs on the caller's thread outside the recorder's lock, so it must be
/// thread-safe; keep it cheap, it is on the hub's hot path.
///
/// The record's ``TraceRecord/size`` stays the size of the message as it crossed.
public typealias Redactor = @Sendable (_ channel: String, _ type: String, _ message: String) -> String

/// Ready-made ``Redactor``s.
public enum TraceRedactor {
    /// The text that replaces a redacted value (as a JSON string: `"[redacted]"`).
    public static let placeholder = "[redacted]"

    /// Replaces the value of every object member named one of `keys`, at any depth,
    /// with the JSON string `"[redacted]"` (whatever the value was: string, number,
    /// object, array, …). Everything else in the text — key order, whitespace,
    /// number spelling — is kept byte for byte. A message that is not valid JSON
    /// is stored unchanged. Keys written with escapes (`"tok\u0065n"`) match too;
    /// JSON nested inside a string value is not looked into.
    ///
    /// Complexity: one pass over the message, O(n) time; no allocation when
    /// nothing is redacted beyond a small stack proportional to nesting depth
    /// (the scanner is iterative, so deep nesting cannot overflow the stack).
    public static func jsonKeys(_ keys: some Sequence<String>) -> Redactor {
        let redactor = JSONKeyRedactor(keys: keys)
        return { _, _, message in redactor.redact(message) }
    }

    /// Applies `redactors` in order, each to the previous one's output.
    public static func chain(_ redactors: [Redactor]) -> Redactor {
        { channel, type, message in
            redactors.reduce(message) { text, redactor in redactor(channel, type, text) }
        }
    }

    /// Applies `redactor` only to messages on `channel` (others are kept as they are).
    public static func only(channel: String, _ redactor: @escaping Redactor) -> Redactor {
        { messageChannel, type, message in
            messageChannel == channel ? redactor(messageChannel, type, message) : message
        }
    }
}
