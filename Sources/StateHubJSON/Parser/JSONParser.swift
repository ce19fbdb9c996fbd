import OrderedCollections

/// Reads JSON text (RFC 8259) into a ``JSONValue``, keeping object key order.
///
/// One loop over ``JSONTokenizer``'s tokens with an explicit stack of open containers: no
/// recursion, so no text can overflow the stack; ``JSONParsingOptions/maximumDepth`` bounds
/// what it builds. Errors are ``JSONParseError``s with a typed reason, the line and column,
/// and the path of the value being read.
///
/// - Complexity: O(n) in the length of the text (O(n × keys per object) to refuse
///   duplicates in objects of more than a few keys is avoided: a set is kept per object).
public struct JSONParser: Sendable {
    public var options: JSONParsingOptions

    public init(options: JSONParsingOptions = JSONParsingOptions()) {
        self.options = options
    }

    /// Parses a whole document.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
            do throws(JSONParseError) { return .success(try parse(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a whole document from UTF-8 bytes (invalid UTF-8 inside strings becomes U+FFFD).
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { bytes in
            do throws(JSONParseError) { return .success(try parse(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a whole document from UTF-8 bytes.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var start = 0
        if options.skipsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var state = JSONParserState(tokenizer: JSONTokenizer(bytes: bytes, position: start, loneSurrogates: options.loneSurrogates), options: options)
        let value = try state.value()
        state.tokenizer.skipWhitespace()
        guard state.tokenizer.position == bytes.count else {
            throw state.tokenizer.error(.textAfterValue, at: state.tokenizer.position)
        }
        return value
    }

    /// Parses one value starting at `position` (leading whitespace skipped) and moves
    /// `position` past it: for readers of a larger document that handle some of its
    /// structure themselves.
    public func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(JSONParseError) -> JSONValue {
        var state = JSONParserState(tokenizer: JSONTokenizer(bytes: bytes, position: position, loneSurrogates: options.loneSurrogates), options: options)
        let value = try state.value()
        position = state.tokenizer.position
        return value
    }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259) with ``JSONParser``, keeping object key order.
    ///
    /// With the default options, as `JSON.parse`: duplicate keys keep the last value, lone
    /// surrogates become U+FFFD; nesting stops at 512 levels.
    /// - Throws: ``JSONParseError`` naming the reason, line, column and path.
    public init(parsing text: String, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONParseError) {
        self = try JSONParser(options: options).parse(text)
    }

    /// Parses one JSON value from UTF-8 `bytes` at `position` (leading whitespace skipped)
    /// and moves `position` past it. See ``JSONParser/parseValue(in:at:)``.
    public static func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at position: inout Int,
                                  options: JSONParsingOptions = JSONParsingOptions()) throws(JSONParseError) -> JSONValue {
        try JSONParser(options: options).parseValue(in: bytes, at: &position)
    }
}

/// One parse in progress: the tokenizer and the containers still open.
struct JSONParserState {
    var tokenizer: JSONTokenizer
    let options: JSONParsingOptions
    private var stack: [Frame] = []
    /// With `.refuse`: the keys of larger open objects, by stack index (kept apart so that
    /// frames stay small when duplicates are allowed).
    private var keySets: [Int: Set<JSONKey>] = [:]

    /// An open array or object. A struct (not an enum) so appending works in place.
    private struct Frame: OpenContainer {
        let isObject: Bool
        var keys: [JSONKey] = []
        var values: [JSONValue] = []

        init(isObject: Bool) {
            self.isObject = isObject
            values.reserveCapacity(isObject ? 8 : 4)
            if isObject { keys.reserveCapacity(8) }
        }
    }

    init(tokenizer: JSONTokenizer, options: JSONParsingOptions) {
        self.tokenizer = tokenizer
        self.options = options
        stack.reserveCapacity(16) // one allocation for the usual depths
    }

    /// Reads one value; errors carry the path of what was being read.
    mutating func value() throws(JSONParseError) -> JSONValue {
        do {
            return try readValue()
        } catch {
            var located = error
            located.path = readingPath(stack, reason: error.reason)
            throw located
        }
    }

    private mutating func readValue() throws(JSONParseError) -> JSONValue {
        var token = try tokenizer.next()
        while true {
            // One value starts at `token`.
            if stack.count >= options.maximumDepth, token.startsValue {
                throw tokenizer.error(.tooDeep(maximum: options.maximumDepth), at: token.range.lowerBound)
            }
            var value: JSONValue
            switch token.kind {
            case .beginArray:
                token = try tokenizer.next()
                if token.kind == .endArray {
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false))
                    continue
                }
            case .beginObject:
                token = try tokenizer.next()
                if token.kind == .endObject {
                    value = .object([:])
                } else {
                    stack.append(Frame(isObject: true))
                    try readKey(token, into: stack.count - 1)
                    token = try tokenizer.next()
                    continue
                }
            case .string: value = .string(tokenizer.string(of: token))
            case .number: value = .number(try tokenizer.number(of: token, range: options.numberRange))
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .null: value = .null
            case .endObject, .endArray, .comma, .colon, .invalid, .end:
                let found: UInt8? = token.kind == .end ? nil : tokenizer.bytes[token.range.lowerBound]
                throw tokenizer.error(.expectedValue(found: found), at: token.range.lowerBound)
            }
            // A value is complete: hand it to the container it belongs to, closing as many
            // containers as end here.
            while true {
                guard let top = stack.indices.last else { return value }
                stack[top].values.append(consume value)
                token = try tokenizer.next()
                if token.kind == .comma {
                    if stack[top].isObject { try readKey(try tokenizer.next(), into: top) }
                    token = try tokenizer.next()
                    break
                }
                let isObject = stack[top].isObject
                guard token.kind == (isObject ? .endObject : .endArray) else {
                    throw tokenizer.error(isObject ? .expectedCommaOrObjectEnd : .expectedCommaOrArrayEnd, at: token.range.lowerBound)
                }
                let frame = stack.removeLast()
                value = isObject ? .object(object(keys: frame.keys, values: frame.values)) : .array(frame.values)
            }
        }
    }

    /// Reads a key and its colon into `stack[top]`.
    @inline(__always)
    private mutating func readKey(_ token: JSONToken, into top: Int) throws(JSONParseError) {
        guard token.kind == .string else { throw tokenizer.error(.expectedKey, at: token.range.lowerBound) }
        let key = JSONKey(tokenizer.string(of: token))
        if options.duplicateKeys == .refuse, isDuplicate(key, in: top) {
            throw tokenizer.error(.duplicateKey(key.string), at: token.range.lowerBound)
        }
        stack[top].keys.append(key)
        let colon = try tokenizer.next()
        guard colon.kind == .colon else { throw tokenizer.error(.expectedColon, at: colon.range.lowerBound) }
    }

    /// Pairwise for small objects, a set beyond (filled as keys arrive).
    private mutating func isDuplicate(_ key: JSONKey, in top: Int) -> Bool {
        if stack[top].keys.count < 8 {
            keySets[top] = nil // a set left by an earlier object at this depth
            return stack[top].keys.contains(key)
        }
        if keySets[top] == nil { keySets[top] = Set(stack[top].keys) }
        return !keySets[top, default: []].insert(key).inserted
    }

    /// The members in order; a repeated key (allowed only with `.useLast`) keeps its first
    /// position and its last value, as in `JSON.parse`.
    private func object(keys: [JSONKey], values: [JSONValue]) -> JSONValue.ObjectMembers {
        if !Self.hasDuplicates(keys) {
            return OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
        }
        var members = JSONValue.ObjectMembers()
        for (key, value) in zip(keys, values) { members[key] = value }
        return members
    }

    /// Pairwise for the small objects messages are made of, hashed beyond that.
    private static func hasDuplicates(_ keys: [JSONKey]) -> Bool {
        if keys.count <= 8 {
            for i in keys.indices.dropFirst() where keys[..<i].contains(keys[i]) { return true }
            return false
        }
        return Set(keys).count != keys.count
    }
}

/// An array or object a parser has begun and not yet ended: what an error's path is read from.
protocol OpenContainer {
    var isObject: Bool { get }
    var keys: [JSONKey] { get }
    var values: [JSONValue] { get }
}

/// The path of the value being read inside `open` (outermost first): the key or index of
/// each open container's pending member, then the repeated key of a duplicate. The strict and
/// the collecting parse share it so that both name a place the same way.
func readingPath(_ open: [some OpenContainer], reason: JSONParseError.Reason) -> [JSONPathElement] {
    var path: [JSONPathElement] = []
    for frame in open {
        if frame.isObject {
            if frame.keys.count > frame.values.count, let key = frame.keys.last { path.append(.key(key.string)) }
        } else {
            path.append(.index(frame.values.count))
        }
    }
    if case .duplicateKey(let key) = reason { path.append(.key(key)) }
    return path
}
