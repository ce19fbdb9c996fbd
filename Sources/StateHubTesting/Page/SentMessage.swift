import JSEngine

/// One message the hub (or another sender) sent to an ``InMemoryPage``.
public struct SentMessage: Sendable, Hashable, CustomStringConvertible {
    /// The message text, as sent.
    public let text: String
    /// The page function it was sent to (`nativeBridge.dispatch` for the hub).
    public let function: String

    public init(text: String, function: String) {
        self.text = text
        self.function = function
    }

    /// The message as JSON, or `nil` when the text is not JSON.
    public var json: JSONValue? { try? JSONValue(parsing: text) }
    /// The envelope's `type` (`dispatch_action`, `request_sync`…).
    public var type: String? { json?["type"]?.stringValue }
    /// The envelope's `storeId`.
    public var storeId: String? { json?["storeId"]?.stringValue }
    /// The envelope's `messageId`, which an `action_result` answers.
    public var messageId: String? { json?["messageId"]?.stringValue }
    /// The envelope's `payload`.
    public var payload: JSONValue? { json?["payload"] }

    public var description: String { "\(function) ← \(text)" }
}
