import StateHubJSON

/// Finds the byte ranges of the values to hide in a JSON text, on StateHubJSON's tokenizer
/// (the package's one JSON tokenizer): tokens come from ``JSONTokenizer``; this type only
/// tracks where it is in the structure, with an explicit stack, so nesting depth cannot
/// overflow the call stack.
///
/// Rules (each optional): a member whose name is sensitive hides its value; an op whose
/// `path` passes through a sensitive name, or through a Map's `entries` (whose keys are not
/// in the op's text), hides its `value` / `items`; a Map entry (a
/// `[key, value]` pair inside an `entries` array, PROTOCOL.md's tagged `Map`) whose key is a
/// sensitive name hides its value; the arguments of a `dispatch_action` at configured
/// positions are hidden.
///
/// Complexity: O(n) in the text's length; allocation: the stack of open containers (it
/// grows to the deepest nesting and is reused) and the ranges found; member names are
/// compared where they sit in the text, decoded only when they contain escapes.
struct RedactionScan {
    struct Rules {
        /// Sensitive names, as UTF-8 bytes (lower-cased when `ignoreCase`).
        var names: [[UInt8]]
        var ignoreCase: Bool
        /// `null` and an absent value (the tagged `{"$type":"undefined"}`, PROTOCOL.md A.3)
        /// stay what they were wherever they would be hidden: under a sensitive name, as an
        /// op's value, as an argument.
        var keepNull: Bool
        /// Apply the op-path rule.
        var opPaths: Bool
        /// `"STORE.ACTION"` → argument positions, for `dispatch_action` texts.
        var arguments: [String: Set<Int>]
        /// `"STORE.ACTION"` → the position of a rest parameter with a sensitive name: that
        /// argument and every later one are hidden.
        var argumentsFrom: [String: Int] = [:]
    }

    /// A member name where it sits in the text (quotes excluded): no copy is made unless it
    /// has escapes and must be decoded to be compared.
    struct Name {
        var range: Range<Int>
        var escaped: Bool
        static let none = Name(range: 0..<0, escaped: false)
    }

    private struct Frame {
        var isObject: Bool
        var memberName: Name
        var start: Int
        var pathSecret = false
        var opValues: [Range<Int>] = []
        /// Elements ended so far (arrays): a Map entry's key is element 0 of its pair.
        var count = 0
    }

    /// Whether `name` (bytes) is one of the rules' names.
    static func matches(_ name: some Collection<UInt8>, _ rules: Rules) -> Bool {
        let count = name.count
        for key in rules.names where key.count == count {
            var equal = true
            for (a, b) in zip(key, name) where a != (rules.ignoreCase ? lower(b) : b) { equal = false; break }
            if equal { return true }
        }
        return false
    }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// The bytes of a string token's text (escapes decoded when it has any), quotes excluded.
    static func text(_ token: JSONToken, _ tokenizer: JSONTokenizer) -> [UInt8] {
        if token.hasEscapes { return Array(tokenizer.string(of: token).utf8) }
        return Array(tokenizer.bytes[(token.range.lowerBound + 1) ..< (token.range.upperBound - 1)])
    }

    static func nameOf(_ token: JSONToken) -> Name {
        Name(range: (token.range.lowerBound + 1) ..< (token.range.upperBound - 1), escaped: token.hasEscapes)
    }

    /// Whether `name` matches the rules, comparing bytes in place when it has no escapes.
    static func matches(_ name: Name, _ b: UnsafeBufferPointer<UInt8>, _ rules: Rules) -> Bool {
        if name.escaped { return matches(decoded(name, b), rules) }
        return matches(UnsafeBufferPointer(rebasing: b[name.range]), rules)
    }

    /// Whether `name` is exactly `literal` (after decoding escapes).
    static func equals(_ name: Name, _ b: UnsafeBufferPointer<UInt8>, _ literal: [UInt8]) -> Bool {
        if name.escaped { return decoded(name, b) == literal }
        return name.range.count == literal.count && UnsafeBufferPointer(rebasing: b[name.range]).elementsEqual(literal)
    }

    private static func decoded(_ name: Name, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var tokenizer = JSONTokenizer(bytes: UnsafeBufferPointer(rebasing: b[(name.range.lowerBound - 1) ..< (name.range.upperBound + 1)]))
        guard let token = try? tokenizer.next(), token.kind == .string else { return [] }
        return Array(tokenizer.string(of: token).utf8)
    }

    /// The ranges to replace, sorted and not overlapping; `nil` when `b` is not valid JSON.
    static func ranges(_ b: UnsafeBufferPointer<UInt8>, rules: Rules, isDispatch: Bool) -> [Range<Int>]? {
        var tokenizer = JSONTokenizer(bytes: b)
        var stack: [Frame] = []
        var ranges: [Range<Int>] = []
        var pending: (start: Int, depth: Int)?
        var redactNext = false
        var mapKeySecret = false
        var currentName = Name.none
        let wantArgs = isDispatch && !(rules.arguments.isEmpty && rules.argumentsFrom.isEmpty)
        var argsRanges: [Range<Int>] = []
        var storeId: String?
        var action: String?

        enum Expect { case value, valueOrEnd, key, keyOrEnd, commaOrEnd, end }
        var expect = Expect.value

        func next() -> JSONToken? {
            guard let token = try? tokenizer.next(), token.kind != .invalid else { return nil }
            return token
        }

        while true {
            guard let token = next() else { return nil }
            var ended: (range: Range<Int>, name: Name)?
            switch expect {
            case .end:
                guard token.kind == .end else { return nil }
                if wantArgs, let storeId, let action {
                    let positions = rules.arguments["\(storeId).\(action)"] ?? [], from = rules.argumentsFrom["\(storeId).\(action)"] ?? .max
                    for (index, range) in argsRanges.enumerated() where positions.contains(index) || index >= from { ranges.append(range) }
                }
                if rules.keepNull { ranges.removeAll { isAbsent($0, b) } }
                return normalise(ranges)
            case .key, .keyOrEnd:
                if expect == .keyOrEnd, token.kind == .endObject {
                    let closed = stack.removeLast()
                    if closed.pathSecret { ranges += closed.opValues }
                    ended = (closed.start ..< token.range.upperBound, closed.memberName)
                    break
                }
                guard token.kind == .string else { return nil }
                currentName = nameOf(token)
                if pending == nil { redactNext = matches(currentName, b, rules) }
                guard next()?.kind == .colon else { return nil }
                expect = .value
                continue
            case .commaOrEnd:
                guard let top = stack.last else { return nil }
                if token.kind == .comma {
                    expect = top.isObject ? .key : .value
                    continue
                }
                guard token.kind == (top.isObject ? .endObject : .endArray) else { return nil }
                let closed = stack.removeLast()
                if closed.pathSecret { ranges += closed.opValues }
                ended = (closed.start ..< token.range.upperBound, closed.memberName)
            case .value, .valueOrEnd:
                if expect == .valueOrEnd, token.kind == .endArray {
                    let closed = stack.removeLast()
                    ended = (closed.start ..< token.range.upperBound, closed.memberName)
                    break
                }
                guard token.startsValue else { return nil }
                let name = stack.last?.isObject == true ? currentName : Name.none
                if redactNext {
                    if !(rules.keepNull && token.kind == .null) { pending = (token.range.lowerBound, stack.count) }
                    redactNext = false
                }
                switch token.kind {
                case .beginObject:
                    stack.append(Frame(isObject: true, memberName: name, start: token.range.lowerBound))
                    expect = .keyOrEnd
                    continue
                case .beginArray:
                    stack.append(Frame(isObject: false, memberName: name, start: token.range.lowerBound))
                    expect = .valueOrEnd
                    continue
                case .string:
                    // The key of a Map entry: `"entries":[[KEY, VALUE], …]`.
                    if let top = stack.last, !top.isObject, top.count == 0, stack.count >= 2, !stack[stack.count - 2].isObject,
                       equals(stack[stack.count - 2].memberName, b, entriesName), matches(nameOf(token), b, rules) {
                        mapKeySecret = true
                    }
                    // A string step of an op's `path`: does the path pass through a sensitive name?
                    if rules.opPaths, let top = stack.last, !top.isObject, stack.count >= 2, equals(top.memberName, b, pathName),
                       matches(nameOf(token), b, rules) || equals(nameOf(token), b, entriesName) {
                        // Through a Map's `entries` (PROTOCOL.md A.3.1's entry ops) the entry's
                        // key is in the mirror, not in this text: the value is hidden whatever
                        // the key, since this scan cannot tell a secret key from another.
                        stack[stack.count - 2].pathSecret = true
                    }
                default:
                    break
                }
                ended = (token.range, name)
            }
            // A value ended: the hidden range it closes, what its container notes about it.
            guard let (range, name) = ended else { continue }
            if let p = pending, p.depth == stack.count {
                ranges.append(p.start ..< range.upperBound)
                pending = nil
            }
            // A secret Map key hides the next element of its pair (nothing, if the pair ends).
            redactNext = mapKeySecret && pending == nil
            mapKeySecret = false
            if let top = stack.last {
                if top.isObject {
                    if rules.opPaths, equals(name, b, valueName) || equals(name, b, itemsName) { stack[stack.count - 1].opValues.append(range) }
                    if wantArgs, stack.count == 1, equals(name, b, storeIdName) { storeId = stringValue(range, b) }
                    if wantArgs, stack.count == 2, equals(name, b, actionName), equals(top.memberName, b, payloadName) { action = stringValue(range, b) }
                } else {
                    stack[stack.count - 1].count += 1
                    if wantArgs, stack.count == 3, equals(top.memberName, b, argsName) { argsRanges.append(range) }
                }
                expect = .commaOrEnd
            } else {
                expect = .end
            }
        }
    }

    /// The decoded text of a string value at `range`, if it is one.
    private static func stringValue(_ range: Range<Int>, _ b: UnsafeBufferPointer<UInt8>) -> String? {
        var tokenizer = JSONTokenizer(bytes: UnsafeBufferPointer(rebasing: b[range]))
        guard let token = try? tokenizer.next(), token.kind == .string else { return nil }
        return tokenizer.string(of: token)
    }

    static let pathName = Array("path".utf8)
    static let valueName = Array("value".utf8)
    static let itemsName = Array("items".utf8)
    static let storeIdName = Array("storeId".utf8)
    static let actionName = Array("action".utf8)
    static let payloadName = Array("payload".utf8)
    static let argsName = Array("args".utf8)
    static let entriesName = Array("entries".utf8)

    /// Sorted, ranges inside others dropped, overlapping ones joined.
    /// Whether the value at `range` is `null` or the tagged `undefined`: nothing to hide.
    static func isAbsent(_ range: Range<Int>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var tokenizer = JSONTokenizer(bytes: UnsafeBufferPointer(rebasing: b[range]))
        var kinds: [JSONToken] = []
        while kinds.count < 6, let token = try? tokenizer.next(), token.kind != .invalid {
            kinds.append(token)
            if token.kind == .end { break }
        }
        if kinds.count == 2, kinds[0].kind == .null { return true }
        guard kinds.count == 6, kinds[0].kind == .beginObject, kinds[1].kind == .string, kinds[2].kind == .colon,
              kinds[3].kind == .string, kinds[4].kind == .endObject, kinds[5].kind == .end else { return false }
        return tokenizer.string(of: kinds[1]) == "$type" && tokenizer.string(of: kinds[3]) == "undefined"
    }

    static func normalise(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound) }) {
            if let last = result.last, range.lowerBound < last.upperBound {
                if range.upperBound > last.upperBound { result[result.count - 1] = last.lowerBound ..< range.upperBound }
                continue
            }
            result.append(range)
        }
        return result
    }

    /// `bytes` with every range replaced by `replacement`. O(n).
    static func replace(_ bytes: UnsafeBufferPointer<UInt8>, _ ranges: [Range<Int>], with replacement: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var last = 0
        for range in ranges {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[last ..< range.lowerBound]))
            out.append(contentsOf: replacement)
            last = range.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[last...]))
        return out
    }
}
