import OrderedCollections

extension JSONParser {
    /// Parses a whole document and collects every problem instead of stopping at the first,
    /// for people fixing a hand-edited file in one go (`statehub theme check`).
    ///
    /// The options say what is a problem, as for ``parse(_:)-([UInt8])``; reading goes on
    /// after each of these, which do not change the text's structure:
    /// - a duplicate key (with ``JSONParsingOptions/DuplicateKeys/refuse``): the last value is kept;
    /// - a number beyond `Double`'s range (with ``JSONParsingOptions/NumberRange/finite``): read as ±infinity;
    /// - a lone surrogate (with ``JSONParsingOptions/LoneSurrogates/refuse``): read as U+FFFD;
    /// - a number missing digits (`1.`, `2e`, `-`): read as `null`;
    /// - a missing `,` between two members or elements, a missing `:` after a key, a `,`
    ///   before `}` or `]`: read as if the text were right.
    /// Any other problem (an unterminated string, a stray byte, a value nested deeper than
    /// the maximum, text after the value) ends the reading: it is the last one reported.
    ///
    /// Each problem is a ``JSONParseError`` with its reason, line, column and path, in text
    /// order. `value` is the document when there was no problem, `nil` otherwise.
    ///
    /// The strict ``parse(_:)-([UInt8])`` is not this code: it stays as fast as it was.
    /// - Complexity: O(n) in the text's length, plus O(offset) per problem to find its line.
    public func parseCollecting(_ bytes: [UInt8], maximumProblems: Int = 100) -> JSONCollectedParse {
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            if options.skipsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
            var state = JSONCollectingState(
                tokenizer: JSONTokenizer(bytes: bytes, position: start, loneSurrogates: options.loneSurrogates),
                options: options, maximumProblems: max(1, maximumProblems))
            let value = state.run()
            return JSONCollectedParse(value: state.problems.isEmpty ? value : nil, problems: state.problems)
        }
    }
}

/// What ``JSONParser/parseCollecting(_:maximumProblems:)`` found.
public struct JSONCollectedParse: Sendable, Hashable {
    /// The document, when there was no problem.
    public var value: JSONValue?
    /// Every problem, in text order (at most the `maximumProblems` asked for).
    public var problems: [JSONParseError]
}

/// One tolerant parse: the tokens, the open containers and the problems so far. Kept apart
/// from the strict parser's state so that path pays nothing for recovery.
struct JSONCollectingState {
    var tokenizer: JSONTokenizer
    let options: JSONParsingOptions
    let maximumProblems: Int
    var problems: [JSONParseError] = []
    private var stack: [Frame] = []

    private struct Frame: OpenContainer {
        let isObject: Bool
        var keys: [JSONKey] = []
        var seen: Set<JSONKey> = []
        var values: [JSONValue] = []
    }

    /// Where the reader is in the structure: what the next token may be.
    private enum Expect { case value, valueOrEnd, key, keyOrEnd, colon, commaOrEnd, end }

    /// A problem that ends the reading.
    private struct Stop: Error {}

    init(tokenizer: JSONTokenizer, options: JSONParsingOptions, maximumProblems: Int) {
        self.tokenizer = tokenizer
        self.options = options
        self.maximumProblems = maximumProblems
    }

    mutating func run() -> JSONValue? {
        do { return try read() } catch { return nil }
    }

    private mutating func read() throws(Stop) -> JSONValue? {
        var expect = Expect.value
        var result: JSONValue?
        var token = try nextToken()
        while true {
            switch expect {
            case .end:
                guard token.kind == .end else { try stop(.textAfterValue, at: token.range.lowerBound) }
                return result
            case .colon:
                if token.kind == .colon {
                    expect = .value
                } else if token.startsValue {
                    try note(.expectedColon, at: token.range.lowerBound)
                    expect = .value
                    continue // read `token` as the value
                } else {
                    try stop(.expectedColon, at: token.range.lowerBound)
                }
            case .key, .keyOrEnd:
                if token.kind == .endObject {
                    if expect == .key { try note(.expectedKey, at: token.range.lowerBound) } // a trailing comma
                    try close(stack.removeLast(), &expect, &result)
                } else if token.kind == .string {
                    try addKey(token)
                    expect = .colon
                } else {
                    try stop(.expectedKey, at: token.range.lowerBound)
                }
            case .commaOrEnd:
                guard let top = stack.last else { return result }
                if token.kind == .comma {
                    expect = top.isObject ? .key : .value
                } else if token.kind == (top.isObject ? .endObject : .endArray) {
                    try close(stack.removeLast(), &expect, &result)
                } else if top.isObject ? token.kind == .string : token.startsValue {
                    try note(top.isObject ? .expectedCommaOrObjectEnd : .expectedCommaOrArrayEnd, at: token.range.lowerBound)
                    expect = top.isObject ? .key : .value
                    continue // read `token` as if a comma came first
                } else {
                    try stop(top.isObject ? .expectedCommaOrObjectEnd : .expectedCommaOrArrayEnd, at: token.range.lowerBound)
                }
            case .value, .valueOrEnd:
                if token.kind == .endArray, stack.last?.isObject == false {
                    if expect == .value { try note(.expectedValue(found: UInt8(ascii: "]")), at: token.range.lowerBound) }
                    try close(stack.removeLast(), &expect, &result)
                    break
                }
                guard token.startsValue else {
                    try stop(.expectedValue(found: token.kind == .end ? nil : tokenizer.bytes[token.range.lowerBound]), at: token.range.lowerBound)
                }
                if stack.count >= options.maximumDepth { try stop(.tooDeep(maximum: options.maximumDepth), at: token.range.lowerBound) }
                switch token.kind {
                case .beginObject:
                    stack.append(Frame(isObject: true))
                    expect = .keyOrEnd
                case .beginArray:
                    stack.append(Frame(isObject: false))
                    expect = .valueOrEnd
                default:
                    try complete(try scalar(token), &expect, &result)
                }
            }
            token = try nextToken()
        }
    }

    /// Hands a finished value to its container (or makes it the document).
    private mutating func complete(_ value: JSONValue, _ expect: inout Expect, _ result: inout JSONValue?) throws(Stop) {
        if stack.isEmpty {
            result = value
            expect = .end
        } else {
            stack[stack.count - 1].values.append(value)
            expect = .commaOrEnd
        }
    }

    private mutating func close(_ frame: Frame, _ expect: inout Expect, _ result: inout JSONValue?) throws(Stop) {
        let value: JSONValue
        if frame.isObject {
            var members = JSONValue.ObjectMembers()
            for (key, member) in zip(frame.keys, frame.values) { members[key] = member }
            value = .object(members)
        } else {
            value = .array(frame.values)
        }
        try complete(value, &expect, &result)
    }

    private mutating func addKey(_ token: JSONToken) throws(Stop) {
        let key = JSONKey(tokenizer.string(of: token))
        let top = stack.count - 1
        if !stack[top].seen.insert(key).inserted, options.duplicateKeys == .refuse {
            try note(.duplicateKey(key.string), at: token.range.lowerBound)
        }
        stack[top].keys.append(key)
    }

    private mutating func scalar(_ token: JSONToken) throws(Stop) -> JSONValue {
        switch token.kind {
        case .string: return .string(tokenizer.string(of: token))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number:
            do throws(JSONParseError) {
                return .number(try tokenizer.number(of: token, range: options.numberRange))
            } catch {
                try note(error)
                return .number((try? tokenizer.number(of: token, range: .unbounded)) ?? .nan)
            }
        default: return .null  // `null`, and a number read as `null` after a problem
        }
    }

    /// The next token; a problem inside a token that leaves the structure readable is
    /// noted and the token read leniently.
    private mutating func nextToken() throws(Stop) -> JSONToken {
        tokenizer.skipWhitespace()
        let start = tokenizer.position
        do throws(JSONParseError) {
            return try tokenizer.next()
        } catch {
            switch error.reason {
            case .loneSurrogate, .invalidSurrogatePair:
                try note(error)
                tokenizer.position = start
                tokenizer.loneSurrogates = .replace
                defer { tokenizer.loneSurrogates = options.loneSurrogates }
                do throws(JSONParseError) { return try tokenizer.next() } catch { try note(error); throw Stop() }
            case .expectedDigit, .expectedFractionDigit, .expectedExponentDigit:
                try note(error)
                var end = start
                while end < tokenizer.bytes.count, Self.isNumberByte(tokenizer.bytes[end]) { end += 1 }
                tokenizer.position = max(end, start + 1)
                return JSONToken(kind: .null, range: start ..< tokenizer.position)
            default:
                try note(error)
                throw Stop()
            }
        }
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }

    /// Records a problem at `offset` with the path being read.
    private mutating func note(_ reason: JSONParseError.Reason, at offset: Int) throws(Stop) {
        try note(tokenizer.error(reason, at: offset))
    }

    private mutating func note(_ error: JSONParseError) throws(Stop) {
        var located = error
        located.path = readingPath(stack, reason: error.reason)
        problems.append(located)
        if problems.count >= maximumProblems { throw Stop() }
    }

    private mutating func stop(_ reason: JSONParseError.Reason, at offset: Int) throws(Stop) -> Never {
        try note(reason, at: offset)
        throw Stop()
    }
}
