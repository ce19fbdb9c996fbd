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
        var deepest = 0
        return try parseValue(in: bytes, at: &position, deepest: &deepest)
    }

    /// ``parseValue(in:at:)``, also telling how many arrays and objects the value's deepest
    /// chain has (`0` for a scalar): what a reader that caps depth would otherwise walk the
    /// value again to learn.
    package func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, deepest: inout Int) throws(JSONParseError) -> JSONValue {
        var state = JSONParserState(tokenizer: JSONTokenizer(bytes: bytes, position: position, loneSurrogates: options.loneSurrogates), options: options)
        let value = try state.value()
        position = state.tokenizer.position
        deepest = state.deepest
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
    /// The most arrays and objects open at once, counting empty ones: the value's container depth.
    private(set) var deepest = 0
    /// By stack index: the keys of the last object closed there, when they were unique. Arrays
    /// of objects mostly repeat one shape, so a key whose bytes are the same as the key at its
    /// position in the last object is that key, reused (no string made), and an object whose
    /// keys are all the last one's has no duplicates (no check): what makes a 1 MB state fast.
    private var shapes: [[ShapeKey]] = []

    /// A key of a shape with its UTF-8 bytes as two little-endian words, when it has at most
    /// 16 (`length` is -1 for longer keys, which are then never matched): two comparisons
    /// tell whether a token spells it.
    private struct ShapeKey {
        let key: JSONKey
        let length: Int
        let low: UInt64
        let high: UInt64

        init(_ key: JSONKey) {
            self.key = key
            var low: UInt64 = 0, high: UInt64 = 0, length = 0
            for byte in key.string.utf8 {
                if length < 8 { low |= UInt64(byte) << (8 * length) } else if length < 16 { high |= UInt64(byte) << (8 * (length - 8)) }
                length += 1
            }
            self.length = length <= 16 ? length : -1
            self.low = low
            self.high = high
        }
    }

    /// An open array or object. A struct (not an enum) so appending works in place.
    private struct Frame: OpenContainer {
        let isObject: Bool
        var keys: [JSONKey] = []
        var values: [JSONValue] = []
        /// Every key so far is the one at its position in `shapes` at this depth.
        var followsShape = true

        init(isObject: Bool) {
            self.isObject = isObject
            values.reserveCapacity(isObject ? 8 : 4)
            if isObject { keys.reserveCapacity(8) }
        }
    }

    init(tokenizer: JSONTokenizer, options: JSONParsingOptions) {
        self.tokenizer = tokenizer
        self.options = options
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
                deepest = max(deepest, stack.count + 1)
                if token.kind == .endArray {
                    value = .array([])
                } else {
                    push(Frame(isObject: false))
                    continue
                }
            case .beginObject:
                token = try tokenizer.next()
                deepest = max(deepest, stack.count + 1)
                if token.kind == .endObject {
                    value = .object([:])
                } else {
                    push(Frame(isObject: true))
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
                value = isObject ? .object(object(frame, at: top)) : .array(frame.values)
            }
        }
    }

    /// Opens a container; the stack's storage is made on the first (a lone scalar needs none).
    @inline(__always)
    private mutating func push(_ frame: Frame) {
        if stack.capacity == 0 { stack.reserveCapacity(16) } // one allocation for the usual depths
        stack.append(frame)
    }

    /// Reads a key and its colon into `stack[top]`.
    @inline(__always)
    private mutating func readKey(_ token: JSONToken, into top: Int) throws(JSONParseError) {
        guard token.kind == .string else { throw tokenizer.error(.expectedKey, at: token.range.lowerBound) }
        let key: JSONKey
        if stack[top].followsShape, let known = shapeKey(token, at: top) {
            key = known
        } else {
            stack[top].followsShape = false
            key = JSONKey(tokenizer.string(of: token))
        }
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

    /// The key at this key's position in the last object closed at `top`, when the token
    /// (without escapes) has exactly its bytes.
    @inline(__always)
    private func shapeKey(_ token: JSONToken, at top: Int) -> JSONKey? {
        guard !token.hasEscapes, top < shapes.count else { return nil }
        let position = stack[top].keys.count
        guard position < shapes[top].count else { return nil }
        let length = token.range.count - 2
        guard shapes[top][position].length == length else { return nil }
        let (low, high) = words(at: token.range.lowerBound + 1, count: length)
        guard shapes[top][position].low == low, shapes[top][position].high == high else { return nil }
        return shapes[top][position].key
    }

    /// The `count` (at most 16) bytes at `start` as two little-endian words, zero beyond them.
    @inline(__always)
    private func words(at start: Int, count: Int) -> (UInt64, UInt64) {
        let bytes = tokenizer.bytes
        guard start + 16 <= bytes.count, let base = bytes.baseAddress else {
            // Near the end of the text: byte by byte, never past it.
            var low: UInt64 = 0, high: UInt64 = 0
            for offset in 0..<count {
                let byte = UInt64(bytes[start + offset])
                if offset < 8 { low |= byte << (8 * offset) } else { high |= byte << (8 * (offset - 8)) }
            }
            return (low, high)
        }
        // 16 bytes are inside the text (checked above): two loads, then the bytes past `count` cleared.
        let raw = UnsafeRawPointer(base + start)
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if count <= 8 { return (low & Self.lowBytes(count), 0) }
        return (low, high & Self.lowBytes(count - 8))
    }

    /// A mask of the low `count` bytes (0…8) of a word.
    @inline(__always)
    private static func lowBytes(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 << (8 * UInt64(count))) &- 1
    }

    /// The members in order; a repeated key (allowed only with `.useLast`) keeps its first
    /// position and its last value, as in `JSON.parse`. Objects with unique keys become the
    /// shape at `top` (see `shapes`).
    private mutating func object(_ frame: Frame, at top: Int) -> JSONValue.ObjectMembers {
        let keys = frame.keys, values = frame.values
        // Keys that are exactly the last shape's are unique, as the shape's were.
        let sameShape = frame.followsShape && top < shapes.count && shapes[top].count == keys.count
        if sameShape || !Self.hasDuplicates(keys) {
            if !sameShape {
                while shapes.count <= top { shapes.append([]) }
                shapes[top] = keys.map(ShapeKey.init)
            }
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
