import StateHubJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a store message in one pass, the way the sync plugin writes it
/// (`v, storeId, messageId, seq, ack, type, payload`), building `MutationOp`s directly
/// instead of a generic tree of every envelope, payload, mutation and op object.
///
/// A thin key matcher over StateHubJSON's tokenizer: the tokenizer reads every byte (strings,
/// escapes, numbers), this type only matches the keys it knows and hands values (`value`,
/// `items`, path steps) to the parser. Anything unexpected — keys with escapes, `payload`
/// before `type`, an unknown key inside an op — makes it give up (`nil`), and the caller parses
/// the message generically, which also produces the precise error. Profiling showed the
/// generic tree dominating the hub's cost per message (figures in docs/benchmarks.md).
///
/// The `payload` of an `apply_mutation` read here holds only the members after `mutations`
/// (its `getters`, docs/PROTOCOL.md A.13; the mutations are in `mutations`); the generic path
/// keeps the whole parsed payload. Nothing reads an `apply_mutation`'s `mutations` member
/// after decoding (MutationOpTests checks both paths give the same message otherwise).
struct StoreMessageDecoder {
    private var tokenizer: JSONTokenizer

    /// Decodes `text`, or returns `nil` when the generic path must take over.
    static func decode(_ text: String) -> StoreMessage? {
        var text = text
        return text.withUTF8(decode(utf8:))
    }

    /// ``decode(_:)`` on a message's UTF-8 bytes (valid UTF-8, as a transport hands them over).
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> StoreMessage? {
        var decoder = StoreMessageDecoder(tokenizer: JSONTokenizer(bytes: bytes))
        if let write = try? decoder.singleSet() { return write }
        decoder.tokenizer.position = 0
        return try? decoder.message()
    }

    /// Decodes `text` only if it is one `set` in the fixed text `flush: 'sync'` writes (see
    /// ``singleSet()``); `nil` otherwise. For tests: ``decode(_:)`` tries this first.
    static func decodeSingleSet(_ text: String) -> StoreMessage? {
        var text = text
        return text.withUTF8 { bytes in
            var decoder = StoreMessageDecoder(tokenizer: JSONTokenizer(bytes: bytes))
            return try? decoder.singleSet()
        }
    }

    /// The one-set message of ``singleSet()`` read for the hub's write path (``SingleSetWrite``),
    /// its path into `path` (emptied first; its storage is reused when nothing else holds it).
    /// `nil` where ``singleSet()`` gives up, and also for a store id or mutation type with escapes,
    /// a message id or `ack` that is no plain string or number, or a `getters` member that is not
    /// an object (the general path reads those).
    static func readSingleSet(utf8 bytes: UnsafeBufferPointer<UInt8>, path: inout [PathStep]) -> SingleSetWrite? {
        var decoder = StoreMessageDecoder(tokenizer: JSONTokenizer(bytes: bytes))
        return try? decoder.singleSetWrite(path: &path)
    }

    private init(tokenizer: JSONTokenizer) { self.tokenizer = tokenizer }

    /// Thrown (and turned into `nil`) when the generic path must take over.
    private struct GiveUp: Error {}

    private enum EnvelopeKey: UInt8 { case v, storeId, messageId, seq, ack, type, payload, other }

    private mutating func message() throws(GiveUp) -> StoreMessage {
        var version: JSONValue?
        var storeId: String?
        var messageId: String?
        var seq: Int?
        var ack: String?
        var type: StoreMessageType?
        var payload: JSONValue.ObjectMembers?
        var mutations: [AppliedMutation]?
        var dispatches: [String] = []
        var untagged = false
        var payloadDepth: Int?
        try expect(.beginObject)
        var seen: UInt8 = 0 // one bit per envelope key: no allocation per message
        repeat {
            let key = try envelopeKey()
            try expect(.colon)
            // A repeated envelope key: the generic parser decides (the last one wins there).
            if key != .other {
                let bit: UInt8 = 1 << key.rawValue
                if seen & bit != 0 { throw GiveUp() }
                seen |= bit
            }
            switch key {
            case .v: version = try value()
            case .storeId: storeId = try envelopeString()
            case .messageId:
                switch try envelopeValue() {
                case .string(let id): messageId = id
                case .number(let n): messageId = JSONValue.number(n).jsonText()
                default: messageId = nil
                }
            case .seq: seq = try integer()
            case .ack: ack = try envelopeValue().stringValue
            case .type:
                guard let name = try value().stringValue, let known = StoreMessageType(rawValue: name) else { throw GiveUp() }
                type = known
            case .payload:
                guard let type else { throw GiveUp() }
                if type == .applyMutation {
                    var others: JSONValue.ObjectMembers = [:]
                    (mutations, dispatches, untagged) = try mutationsPayload(others: &others)
                    payload = others
                } else {
                    var deepest = 0
                    do {
                        guard case .object(let members) = try JSONParser(options: StoreMessage.bodyParsing)
                            .parseValue(in: tokenizer.bytes, at: &tokenizer.position, deepest: &deepest) else { throw GiveUp() }
                        payload = members
                    } catch { throw GiveUp() }
                    payloadDepth = deepest
                }
            case .other:
                _ = try value()
            }
        } while try commaOrEnd(.endObject)
        guard try next().kind == .end, let type, let payload, storeId != nil || type == .error else { throw GiveUp() }
        if let version, version != .number(Double(StoreMessage.protocolVersion)) { throw GiveUp() }
        var message = StoreMessage(type: type, storeId: storeId, messageId: messageId, seq: seq, ack: ack, payload: payload, mutations: mutations.map { .success($0) })
        message.dispatches = dispatches
        message.untagged = untagged
        message.payloadDepth = payloadDepth
        return message
    }

    /// The message of one untagged write under `flush: 'sync'` (docs/PROTOCOL.md A.5.2), as the plugin
    /// writes it, byte for byte: `{"v":1,"storeId":…,"messageId":…,"seq":…[,"ack":…],"type":"apply_mutation",
    /// "payload":{"mutations":[{"type":…,"ops":[{"op":"set","path":[…],"value":…}]}][,"getters":…]}}`.
    ///
    /// The fixed text between the fields is compared as bytes, not tokenized key by key (the key
    /// matching was most of the decoder's time, docs/benchmarks.md); the fields themselves are read
    /// as in ``message()``. Anything else — whitespace, another key order, an action's tags, a
    /// second op — gives up, and ``message()`` reads the text from its start: the result is the
    /// message ``message()`` would have made (DecoderDifferentialTests).
    private mutating func singleSet() throws(GiveUp) -> StoreMessage {
        try literal(#"{"v":1,"storeId":"#)
        let storeId = try envelopeString()
        try literal(#","messageId":"#)
        let messageId: String?
        switch try envelopeValue() {
        case .string(let id): messageId = id
        case .number(let n): messageId = JSONValue.number(n).jsonText()
        default: messageId = nil
        }
        try literal(#","seq":"#)
        let seq = try integer()
        var ack: String?
        if (try? literal(#","ack":"#)) != nil { ack = try envelopeValue().stringValue }
        try literal(#","type":"apply_mutation","payload":{"mutations":[{"type":"#)
        let type = try string()
        try literal(#","ops":[{"op":"set","path":"#)
        let path = try pathSteps()
        try literal(#","value":"#)
        let newValue = try value()
        let getters = try singleSetEnd()
        var message = StoreMessage(type: .applyMutation, storeId: storeId, messageId: messageId, seq: seq, ack: ack,
                                   payload: getters.map { ["getters": $0] as JSONValue.ObjectMembers } ?? [:],
                                   mutations: .success([AppliedMutation(type: type, ops: [.set(path: path, value: newValue)])]))
        message.untagged = true // no `dispatch` tag: the literal above leaves no room for one
        return message
    }

    /// ``singleSet()`` for ``readSingleSet(utf8:path:)``: the same literals and the same readers,
    /// but the store id and mutation type stay byte ranges (plain strings only), the message id and
    /// `ack` are only checked, and the path goes into `path`.
    private mutating func singleSetWrite(path: inout [PathStep]) throws(GiveUp) -> SingleSetWrite {
        try literal(#"{"v":1,"storeId":"#)
        let storeId = try plainString()
        try literal(#","messageId":"#)
        try plainScalar()
        try literal(#","seq":"#)
        let seq = try integer()
        if (try? literal(#","ack":"#)) != nil { try plainScalar() }
        try literal(#","type":"apply_mutation","payload":{"mutations":[{"type":"#)
        let type = try plainString()
        try literal(#","ops":[{"op":"set","path":"#)
        try pathSteps(into: &path)
        try literal(#","value":"#)
        let newValue = try value()
        var getters: JSONValue.ObjectMembers?
        switch try singleSetEnd() {
        case nil: break
        case .object(let members)?: getters = members
        case _?: throw GiveUp() // not an object: the general path records the problem (A.13)
        }
        return SingleSetWrite(storeId: storeId, seq: seq, mutationType: type, value: newValue, getters: getters)
    }

    /// The end of a one-set message: `}]}]}}`, or `}]}],"getters":…}}` when the write changed getters
    /// of its store (docs/PROTOCOL.md A.13). The getters' value, read only when the member is there,
    /// as ``message()`` reads a payload member after `mutations`.
    private mutating func singleSetEnd() throws(GiveUp) -> JSONValue? {
        try literal("}]}]")
        var getters: JSONValue?
        if (try? literal(#","getters":"#)) != nil { getters = try value() }
        try literal("}}")
        guard tokenizer.position == tokenizer.bytes.count else { throw GiveUp() }
        return getters
    }

    /// A string without escapes: the range of its content (no `String` made).
    private mutating func plainString() throws(GiveUp) -> Range<Int> {
        let token = try next()
        guard token.kind == .string, !token.hasEscapes else { throw GiveUp() }
        return token.range.lowerBound + 1 ..< token.range.upperBound - 1
    }

    /// A message id or `ack` as ``envelopeValue()`` reads it without giving up — a string without
    /// escapes, or a number in range — checked and not kept.
    private mutating func plainScalar() throws(GiveUp) {
        let token = try next()
        switch token.kind {
        case .string: if token.hasEscapes { throw GiveUp() }
        case .number: _ = try number(token)
        default: throw GiveUp()
        }
    }

    /// Moves past `text` if the bytes at the position are exactly it.
    @inline(__always)
    private mutating func literal(_ text: StaticString) throws(GiveUp) {
        let count = text.utf8CodeUnitCount
        let start = tokenizer.position
        guard tokenizer.bytes.count - start >= count else { throw GiveUp() }
        guard let base = tokenizer.bytes.baseAddress, memcmp(base + start, text.utf8Start, count) == 0 else { throw GiveUp() }
        tokenizer.position = start + count
    }

    /// `{"mutations":[{"type":…,"ops":[…]},…]}`, then any other members (`getters`,
    /// docs/PROTOCOL.md A.13) into `others`, as the generic path keeps them in the payload.
    private mutating func mutationsPayload(others: inout JSONValue.ObjectMembers) throws(GiveUp) -> ([AppliedMutation], [String], Bool) {
        try expect(.beginObject)
        try expectKey("mutations")
        var result: [AppliedMutation] = []
        var dispatches: [String] = []
        var untagged = false
        try list { (decoder: inout StoreMessageDecoder) throws(GiveUp) in
            let (mutation, dispatch) = try decoder.mutation()
            result.append(mutation)
            if let dispatch {
                if dispatches.last != dispatch { dispatches.append(dispatch) }
            } else {
                untagged = true
            }
        }
        while try commaOrEnd(.endObject) {
            let key = try string()
            try expect(.colon)
            others[JSONKey(key)] = try value()
        }
        return (result, dispatches, untagged)
    }

    /// One mutation and the `dispatch` it is tagged with, if any (PROTOCOL.md A.5.2).
    private mutating func mutation() throws(GiveUp) -> (AppliedMutation, String?) {
        try expect(.beginObject)
        var type = "direct"
        var ops: [MutationOp]?
        var dispatch: String?
        repeat {
            let key = try next()
            try expect(.colon)
            if tokenizer.isString(key, equalTo: "type") {
                type = try string()
            } else if tokenizer.isString(key, equalTo: "ops") {
                var list: [MutationOp] = []
                try self.list { (decoder: inout StoreMessageDecoder) throws(GiveUp) in list.append(try decoder.operation()) }
                ops = list
            } else if tokenizer.isString(key, equalTo: "dispatch") {
                // The native dispatch whose writes these are: if the hub drops them, that
                // dispatch (and no other) must not report success (PROTOCOL.md A.7).
                dispatch = StoreMessage.dispatchId(try value())
            } else if tokenizer.isString(key, equalTo: "action") || tokenizer.isString(key, equalTo: "call")
                        || tokenizer.isString(key, equalTo: "parent") || tokenizer.isString(key, equalTo: "root") {
                // The action call running when the writes happened and how it nests (PROTOCOL.md
                // A.5.2): for traces, which keep the raw message; the mirror does not need it.
                _ = try value()
            } else {
                throw GiveUp()
            }
        } while try commaOrEnd(.endObject)
        guard let ops else { throw GiveUp() }
        return (AppliedMutation(type: type, ops: ops), dispatch)
    }

    private mutating func operation() throws(GiveUp) -> MutationOp {
        try expect(.beginObject)
        var kind: String?
        var path: [PathStep]?
        var newValue: JSONValue?
        var index: Int?
        var deleteCount: Int?
        var items: [JSONValue]?
        repeat {
            let key = try next()
            try expect(.colon)
            if tokenizer.isString(key, equalTo: "op") {
                kind = try string()
            } else if tokenizer.isString(key, equalTo: "path") {
                path = try pathSteps()
            } else if tokenizer.isString(key, equalTo: "value") {
                newValue = try value()
            } else if tokenizer.isString(key, equalTo: "index") {
                guard let number = try value().intValue, number >= 0 else { throw GiveUp() }
                index = number
            } else if tokenizer.isString(key, equalTo: "deleteCount") {
                guard let number = try value().intValue, number >= 0 else { throw GiveUp() }
                deleteCount = number
            } else if tokenizer.isString(key, equalTo: "items") {
                guard case .array(let list) = try value() else { throw GiveUp() }
                items = list
            } else {
                throw GiveUp()
            }
        } while try commaOrEnd(.endObject)
        guard let kind, let path else { throw GiveUp() }
        switch kind {
        case "set":
            guard let newValue else { throw GiveUp() }
            return .set(path: path, value: newValue)
        case "delete":
            return .delete(path: path)
        case "splice":
            guard let index, let deleteCount, let items else { throw GiveUp() }
            return .splice(path: path, index: index, deleteCount: deleteCount, items: items)
        default:
            throw GiveUp()
        }
    }

    // MARK: Tokens

    private mutating func next() throws(GiveUp) -> JSONToken {
        do { return try tokenizer.next() } catch { throw GiveUp() }
    }

    private mutating func expect(_ kind: JSONToken.Kind) throws(GiveUp) {
        guard try next().kind == kind else { throw GiveUp() }
    }

    private mutating func expectKey(_ name: StaticString) throws(GiveUp) {
        guard tokenizer.isString(try next(), equalTo: name) else { throw GiveUp() }
        try expect(.colon)
    }

    /// After a member or element: true at `,`, false at `end`.
    private mutating func commaOrEnd(_ end: JSONToken.Kind) throws(GiveUp) -> Bool {
        let token = try next()
        if token.kind == .comma { return true }
        guard token.kind == end else { throw GiveUp() }
        return false
    }

    /// `[element, …]`, each element read by `element`.
    private mutating func list(_ element: (inout StoreMessageDecoder) throws(GiveUp) -> Void) throws(GiveUp) {
        try expect(.beginArray)
        let start = tokenizer.position
        if try next().kind == .endArray { return }
        tokenizer.position = start
        repeat { try element(&self) } while try commaOrEnd(.endArray)
    }

    /// An envelope key; unknown keys without escapes are `.other`, skipped cheaply.
    private mutating func envelopeKey() throws(GiveUp) -> EnvelopeKey {
        let key = try next()
        guard key.kind == .string, !key.hasEscapes else { throw GiveUp() }
        if tokenizer.isString(key, equalTo: "v") { return .v }
        if tokenizer.isString(key, equalTo: "storeId") { return .storeId }
        if tokenizer.isString(key, equalTo: "messageId") { return .messageId }
        if tokenizer.isString(key, equalTo: "seq") { return .seq }
        if tokenizer.isString(key, equalTo: "ack") { return .ack }
        if tokenizer.isString(key, equalTo: "type") { return .type }
        if tokenizer.isString(key, equalTo: "payload") { return .payload }
        return .other
    }

    /// `["items", 0, "qty"]`: each step read from its token, with no array of `JSONValue`s
    /// built first. Anything but a string or a number (a nested array, an object) is no step:
    /// the generic path names it.
    private mutating func pathSteps() throws(GiveUp) -> [PathStep] {
        var steps: [PathStep] = []
        try pathSteps(into: &steps)
        return steps
    }

    /// ``pathSteps()`` into `steps`, emptied first (its storage kept).
    private mutating func pathSteps(into steps: inout [PathStep]) throws(GiveUp) {
        steps.removeAll(keepingCapacity: true)
        try expect(.beginArray)
        var token = try next()
        if token.kind == .endArray { return }
        steps.reserveCapacity(4)
        while true {
            let step: PathStep?
            switch token.kind {
            case .string: step = .key(tokenizer.string(of: token))
            case .number: step = PathStep(.number(try number(token)))
            default: step = nil
            }
            guard let step else { throw GiveUp() }
            steps.append(step)
            token = try next()
            if token.kind == .endArray { return }
            guard token.kind == .comma else { throw GiveUp() }
            token = try next()
        }
    }

    private func number(_ token: JSONToken) throws(GiveUp) -> Double {
        do { return try tokenizer.number(of: token, range: StoreMessage.bodyParsing.numberRange) } catch { throw GiveUp() }
    }

    /// A scalar read straight from its token (no parser set up for it); a container goes to
    /// the parser, from its first byte.
    @inline(__always)
    private mutating func scalar(_ token: JSONToken) throws(GiveUp) -> JSONValue? {
        switch token.kind {
        case .string: .string(tokenizer.string(of: token))
        case .number: .number(try number(token))
        case .true: .bool(true)
        case .false: .bool(false)
        case .null: .null
        default: nil
        }
    }

    private mutating func string() throws(GiveUp) -> String {
        guard case .string(let text) = try value() else { throw GiveUp() }
        return text
    }

    /// An envelope string (store id, message id, ack): lone surrogates make the generic path
    /// take over, which refuses the message naming the field (`StoreMessage.init(parsing:)`).
    private mutating func envelopeString() throws(GiveUp) -> String {
        guard case .string(let text) = try envelopeValue() else { throw GiveUp() }
        return text
    }

    private mutating func envelopeValue() throws(GiveUp) -> JSONValue {
        let start = tokenizer.position
        let token = try next()
        // A string with escapes may hold a lone surrogate, which the envelope's options refuse.
        if token.kind != .string || !token.hasEscapes, let value = try scalar(token) { return value }
        tokenizer.position = start
        do { return try JSONValue.parseValue(in: tokenizer.bytes, at: &tokenizer.position, options: StoreMessage.envelopeParsing) } catch { throw GiveUp() }
    }

    private mutating func integer() throws(GiveUp) -> Int {
        guard let number = try value().intValue else { throw GiveUp() }
        return number
    }

    private mutating func value() throws(GiveUp) -> JSONValue {
        let start = tokenizer.position
        if let value = try scalar(try next()) { return value }
        tokenizer.position = start
        do { return try JSONValue.parseValue(in: tokenizer.bytes, at: &tokenizer.position, options: StoreMessage.bodyParsing) } catch { throw GiveUp() }
    }
}
