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
    /// For `apply_mutation`: the decoded mutations, or why they could not be read.
    var mutations: Result<[AppliedMutation], MutationOpError>?
    /// For `apply_mutation`: the `dispatch` tags of its mutations (PROTOCOL.md A.5.2), as
    /// messageIds, in order, without repeats in a row.
    var dispatches: [String] = []
    /// For `apply_mutation`: some mutation carries no `dispatch` tag (page code wrote, not a
    /// native dispatch): a write that interrupts a transaction (docs/transactions.md).
    var untagged = false
    /// Arrays and objects on the payload's deepest chain, the payload counted, when the parser
    /// said so (the one-pass decoder): a state inside it is at most one less deep, so the hub
    /// need not walk a state it already knows is under the cap.
    var payloadDepth: Int?

    /// Version this hub speaks.
    static let protocolVersion = 1

    init(type: StoreMessageType, storeId: String?, messageId: String?, seq: Int?, ack: String?,
         payload: JSONValue.ObjectMembers, mutations: Result<[AppliedMutation], MutationOpError>?) {
        self.type = type
        self.storeId = storeId
        self.messageId = messageId
        self.seq = seq
        self.ack = ack
        self.payload = payload
        self.mutations = mutations
    }

    /// Parses and checks a message: the one-pass decoder first, the generic parser when the
    /// message is not in the plugin's own shape (and for the precise error).
    ///
    /// - Throws: `StoreMessageError` naming what was wrong, with the store id when it could be read.
    init(text: String) throws(StoreMessageError) {
        if let decoded = StoreMessageDecoder.decode(text) {
            self = decoded
            return
        }
        try self.init(parsing: text)
    }

    /// How envelope strings are read: a lone surrogate is refused, not replaced.
    static let envelopeParsing = JSONParsingOptions(loneSurrogates: .refuse, maximumDepth: JSONValue.maximumMessageNesting)
    /// How the rest is read: nesting allowed up to what the state depth cap implies
    /// (``JSONValue/maximumMessageNesting``), so the state cap, not the parser, decides.
    static let bodyParsing = JSONParsingOptions(maximumDepth: JSONValue.maximumMessageNesting)
    /// The envelope fields that are strings and name things (PROTOCOL.md A.1).
    static let envelopeStrings: Set<String> = ["storeId", "messageId", "ack", "type"]

    /// The generic path: parse the whole message as a `JSONValue`, then read it.
    init(parsing text: String) throws(StoreMessageError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: text, options: Self.envelopeParsing) } catch let error {
            // A store id with a lone surrogate would share a mirror with the id that has
            // U+FFFD in its place ('\ud800' and '\ufffd'): such envelope strings are refused.
            // Strings inside the payload keep the parser's default (U+FFFD), as before.
            if error.reason == .loneSurrogate, error.path.count == 1, case .key(let field) = error.path[0], Self.envelopeStrings.contains(field) {
                throw StoreMessageError(storeId: nil, reason: "field \"\(field)\" is not valid Unicode (a lone surrogate at line \(error.line), column \(error.column))")
            }
            do { value = try JSONValue(parsing: text, options: Self.bodyParsing) } catch {
                // Deeper than any state within the cap can make a message: a depth refusal
                // the page is told about (docs/PROTOCOL.md A.8.1), not just a malformed text.
                if case .tooDeep = error.reason {
                    throw StoreMessageError(storeId: GlobalStateHub.storeIdPrefix(of: text), reason: "not valid JSON: \(error)", tooDeep: true)
                }
                throw StoreMessageError(storeId: nil, reason: "not valid JSON: \(error)")
            }
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
        if type == .applyMutation {
            mutations = Self.readMutations(payload["mutations"])
            for case .object(let mutation) in payload["mutations"]?.arrayValue ?? [] {
                if let id = Self.dispatchId(mutation["dispatch"]) {
                    if dispatches.last != id { dispatches.append(id) }
                } else {
                    untagged = true
                }
            }
        }
    }

    /// A `dispatch` tag as the messageId it echoes (a number is written as JSON writes it).
    static func dispatchId(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let id)?: id
        case .number(let n)?: JSONValue.number(n).jsonText()
        default: nil
        }
    }

    /// The mutations of an `apply_mutation` payload read from a generic tree.
    static func readMutations(_ value: JSONValue?) -> Result<[AppliedMutation], MutationOpError> {
        guard case .array(let rawMutations)? = value else {
            return .failure(MutationOpError(path: [], reason: "apply_mutation without a payload.mutations array"))
        }
        var result: [AppliedMutation] = []
        result.reserveCapacity(rawMutations.count)
        for raw in rawMutations {
            guard case .object(let fields) = raw, case .array(let rawOps)? = fields["ops"] else {
                return .failure(MutationOpError(path: [], reason: "mutation without an ops array"))
            }
            var ops: [MutationOp] = []
            ops.reserveCapacity(rawOps.count)
            for rawOp in rawOps {
                do { ops.append(try MutationOp(wire: rawOp)) } catch { return .failure(error) }
            }
            result.append(AppliedMutation(type: fields["type"]?.stringValue ?? "direct", ops: ops))
        }
        return .success(result)
    }
}

/// A message from a page that could not be understood.
public struct StoreMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store the message was about, when that much could be read.
    public var storeId: String?
    public var reason: String
    /// The text nests deeper than ``JSONValue/maximumMessageNesting``: the state it carries is
    /// over the depth cap, so the hub answers as for any state too deep (A.8.1).
    var tooDeep = false

    public var description: String { "malformed store message\(storeId.map { " for store \($0)" } ?? ""): \(reason)" }
}

/// Builds native → web messages. Text is assembled from `JSONValue`s, never pasted into source.
enum OutgoingMessage {
    /// `storeId` is `nil` (JSON `null`) only in an `error` about a message whose store id could not be read (A.1).
    static func text(type: StoreMessageType, storeId: String?, messageId: String, payload: JSONValue) -> String {
        // The envelope by hand around the payload's text: the same text as writing the whole
        // object, without building (and hashing) a five-key object per message.
        var text = envelope(type: type, storeId: storeId, messageId: messageId)
        JSONValue.write(payload, into: &text)
        text += "}"
        return text
    }

    /// A `dispatch_action`: the text of ``text(type:storeId:messageId:payload:)`` with the payload
    /// `{"action":…,"args":[…]}`, written without building that two-key object per dispatch.
    static func dispatchText(storeId: String, messageId: String, action: String, args: [JSONValue]) -> String {
        var text = envelope(type: .dispatchAction, storeId: storeId, messageId: messageId)
        text += #"{"action":"#
        JSONValue.writeString(action, into: &text)
        text += #","args":["#
        for (index, argument) in args.enumerated() {
            if index > 0 { text += "," }
            JSONValue.write(argument, into: &text)
        }
        text += "]}}"
        return text
    }

    /// `{"v":1,"storeId":…,"messageId":…,"type":…,"payload":` — the payload's text and `}` follow.
    private static func envelope(type: StoreMessageType, storeId: String?, messageId: String) -> String {
        var text = #"{"v":"# + String(StoreMessage.protocolVersion) + #","storeId":"#
        text.reserveCapacity(160)
        if let storeId { JSONValue.writeString(storeId, into: &text) } else { text += "null" }
        text += #","messageId":"#
        JSONValue.writeString(messageId, into: &text)
        text += #","type":""# + type.rawValue + #"","payload":"#
        return text
    }
}
