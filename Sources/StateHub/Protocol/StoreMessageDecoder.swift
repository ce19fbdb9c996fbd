import JSEngine

/// Reads a store message in one pass over its UTF-8 bytes, the way the sync plugin writes it
/// (`v, storeId, messageId, seq, ack, type, payload`), building `MutationOp`s directly
/// instead of a generic tree of every envelope, payload, mutation and op object.
///
/// Only values (`value`, `items`, path steps) go through the generic JSON parser. Anything
/// unexpected — keys with escapes, `payload` before `type`, an unknown key inside an op —
/// makes the decoder give up (`nil`), and the caller parses the message generically, which
/// also produces the precise error. Profiling showed the generic tree dominating the hub's
/// cost per message.
struct StoreMessageDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// Decodes `text`, or returns `nil` when the generic path must take over.
    static func decode(_ text: String) -> StoreMessage? {
        var text = text
        return text.withUTF8 { bytes in
            var decoder = StoreMessageDecoder(bytes: bytes)
            return decoder.message()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private enum EnvelopeKey: UInt8 { case v, storeId, messageId, seq, ack, type, payload, other }

    private mutating func message() -> StoreMessage? {
        var version: JSONValue?
        var storeId: String?
        var messageId: String?
        var seq: Int?
        var ack: String?
        var type: StoreMessageType?
        var payload: JSONValue.ObjectMembers?
        var mutations: [AppliedMutation]?
        guard consume(UInt8(ascii: "{")) else { return nil }
        if consume(UInt8(ascii: "}")) { return nil }
        var seen: UInt8 = 0 // one bit per envelope key: no allocation per message
        repeat {
            guard let key = envelopeKey(), consume(UInt8(ascii: ":")) else { return nil }
            // A repeated envelope key: the generic parser decides (the last one wins there).
            if key != .other {
                let bit: UInt8 = 1 << key.rawValue
                if seen & bit != 0 { return nil }
                seen |= bit
            }
            switch key {
            case .v: version = value()
            case .storeId:
                guard case .string(let id)? = value() else { return nil }
                storeId = id
            case .messageId:
                switch value() {
                case .string(let id)?: messageId = id
                case .number(let n)?: messageId = JSONValue.number(n).jsonText()
                default: messageId = nil
                }
            case .seq:
                guard let number = value()?.intValue else { return nil }
                seq = number
            case .ack: ack = value()?.stringValue
            case .type:
                guard let name = value()?.stringValue, let known = StoreMessageType(rawValue: name) else { return nil }
                type = known
            case .payload:
                guard let type else { return nil }
                if type == .applyMutation {
                    guard let decoded = mutationsPayload() else { return nil }
                    mutations = decoded
                    payload = [:]
                } else {
                    guard case .object(let members)? = value() else { return nil }
                    payload = members
                }
            case .other:
                guard value() != nil else { return nil }
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard position == bytes.count, let type, let payload, storeId != nil || type == .error else { return nil }
        if let version, version != .number(Double(StoreMessage.protocolVersion)) { return nil }
        return StoreMessage(type: type, storeId: storeId, messageId: messageId, seq: seq, ack: ack, payload: payload, mutations: mutations.map { .success($0) })
    }

    /// `{"mutations":[{"type":…,"ops":[…]},…]}`
    private mutating func mutationsPayload() -> [AppliedMutation]? {
        guard consume(UInt8(ascii: "{")), matchKey("mutations"), consume(UInt8(ascii: ":")), consume(UInt8(ascii: "[")) else { return nil }
        var result: [AppliedMutation] = []
        if !consume(UInt8(ascii: "]")) {
            repeat {
                guard let mutation = mutation() else { return nil }
                result.append(mutation)
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { return nil }
        }
        guard consume(UInt8(ascii: "}")) else { return nil }
        return result
    }

    private mutating func mutation() -> AppliedMutation? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var type = "direct"
        var ops: [MutationOp]?
        repeat {
            if matchKey("type") {
                guard consume(UInt8(ascii: ":")), let name = value()?.stringValue else { return nil }
                type = name
            } else if matchKey("ops") {
                guard consume(UInt8(ascii: ":")), consume(UInt8(ascii: "[")) else { return nil }
                var list: [MutationOp] = []
                if !consume(UInt8(ascii: "]")) {
                    repeat {
                        guard let op = operation() else { return nil }
                        list.append(op)
                    } while consume(UInt8(ascii: ","))
                    guard consume(UInt8(ascii: "]")) else { return nil }
                }
                ops = list
            } else {
                return nil
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), let ops else { return nil }
        return AppliedMutation(type: type, ops: ops)
    }

    private mutating func operation() -> MutationOp? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var kind: String?
        var path: [PathStep]?
        var newValue: JSONValue?
        var index: Int?
        var deleteCount: Int?
        var items: [JSONValue]?
        repeat {
            if matchKey("op") {
                guard consume(UInt8(ascii: ":")), let name = value()?.stringValue else { return nil }
                kind = name
            } else if matchKey("path") {
                guard consume(UInt8(ascii: ":")), case .array(let steps)? = value() else { return nil }
                var parsed: [PathStep] = []
                parsed.reserveCapacity(steps.count)
                for step in steps {
                    guard let valid = PathStep(step) else { return nil }
                    parsed.append(valid)
                }
                path = parsed
            } else if matchKey("value") {
                guard consume(UInt8(ascii: ":")), let parsed = value() else { return nil }
                newValue = parsed
            } else if matchKey("index") {
                guard consume(UInt8(ascii: ":")), let number = value()?.intValue, number >= 0 else { return nil }
                index = number
            } else if matchKey("deleteCount") {
                guard consume(UInt8(ascii: ":")), let number = value()?.intValue, number >= 0 else { return nil }
                deleteCount = number
            } else if matchKey("items") {
                guard consume(UInt8(ascii: ":")), case .array(let list)? = value() else { return nil }
                items = list
            } else {
                return nil
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), let kind, let path else { return nil }
        switch kind {
        case "set":
            guard let newValue else { return nil }
            return .set(path: path, value: newValue)
        case "delete":
            return .delete(path: path)
        case "splice":
            guard let index, let deleteCount, let items else { return nil }
            return .splice(path: path, index: index, deleteCount: deleteCount, items: items)
        default:
            return nil
        }
    }

    // MARK: Bytes

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Consumes `"name"` when it is next, comparing bytes (no string is made).
    private mutating func matchKey(_ name: StaticString) -> Bool {
        skipWhitespace()
        let count = name.utf8CodeUnitCount
        guard position + count + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\""),
              bytes[position + count + 1] == UInt8(ascii: "\"") else { return false }
        let start = name.utf8Start
        for offset in 0..<count where bytes[position + 1 + offset] != start[offset] { return false }
        position += count + 2
        return true
    }

    private mutating func envelopeKey() -> EnvelopeKey? {
        if matchKey("v") { return .v }
        if matchKey("storeId") { return .storeId }
        if matchKey("messageId") { return .messageId }
        if matchKey("seq") { return .seq }
        if matchKey("ack") { return .ack }
        if matchKey("type") { return .type }
        if matchKey("payload") { return .payload }
        // Another key: skip it when it has no escapes, so unknown fields stay cheap.
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        var end = position + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        position = end + 1
        return .other
    }

    private mutating func value() -> JSONValue? {
        try? JSONValue.parseValue(in: bytes, at: &position)
    }
}
