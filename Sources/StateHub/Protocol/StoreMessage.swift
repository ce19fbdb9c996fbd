import JSEngine

/// A store-sync message from a page, parsed and checked (docs/PROTOCOL.md A.1).
struct StoreMessage {
    var type: StoreMessageType
    var storeId: String?
    var messageId: String?
    var seq: Int?
    /// The id of the last native → web `sync_state` / `apply_mutation` the page had applied.
    var ack: String?
    var payload: JSONValue.ObjectMembers

    /// Version this hub speaks.
    static let protocolVersion = 1

    /// Parses and checks the envelope.
    ///
    /// - Throws: `StoreMessageError` naming what was wrong, with the store id when it could be read.
    init(text: String) throws(StoreMessageError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch {
            throw StoreMessageError(storeId: nil, reason: "not valid JSON: \(error)")
        }
        guard case .object(let fields) = value else { throw StoreMessageError(storeId: nil, reason: "not a JSON object") }
        let storeId = fields["storeId"]?.stringValue
        if let version = fields["v"], version != .number(Double(Self.protocolVersion)) {
            throw StoreMessageError(storeId: storeId, reason: "unsupported protocol version \(version)")
        }
        guard let rawType = fields["type"]?.stringValue else {
            throw StoreMessageError(storeId: storeId, reason: "missing field \"type\"")
        }
        guard let type = StoreMessageType(rawValue: rawType) else {
            throw StoreMessageError(storeId: storeId, reason: "unknown type \"\(rawType)\"")
        }
        guard case .object(let payload)? = fields["payload"] else {
            throw StoreMessageError(storeId: storeId, reason: "missing or non-object field \"payload\"")
        }
        if type != .error, storeId == nil {
            throw StoreMessageError(storeId: nil, reason: "missing field \"storeId\"")
        }
        self.type = type
        self.storeId = storeId
        switch fields["messageId"] {
        case .string(let id)?: messageId = id
        case .number(let n)?: messageId = JSONValue.number(n).jsonText()
        default: messageId = nil
        }
        if let seq = fields["seq"] {
            guard let number = seq.intValue else { throw StoreMessageError(storeId: storeId, reason: "field \"seq\" is not an integer") }
            self.seq = number
        }
        ack = fields["ack"]?.stringValue
        self.payload = payload
    }
}

/// A message from a page that could not be understood.
public struct StoreMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store the message was about, when that much could be read.
    public var storeId: String?
    public var reason: String

    public var description: String { "malformed store message\(storeId.map { " for store \($0)" } ?? ""): \(reason)" }
}

/// Builds native → web messages. Text is assembled from `JSONValue`s, never pasted into source.
enum OutgoingMessage {
    static func text(type: StoreMessageType, storeId: String, messageId: String, payload: JSONValue) -> String {
        JSONValue.object([
            "v": .number(Double(StoreMessage.protocolVersion)),
            "storeId": .string(storeId),
            "messageId": .string(messageId),
            "type": .string(type.rawValue),
            "payload": payload,
        ]).jsonText()
    }
}
