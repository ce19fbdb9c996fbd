import StateHubJSON

/// Reads a theme's bytes into a `JSONValue` with StateHubJSON's parser, set stricter than
/// `JSON.parse` because a theme is edited by hand: a repeated key is an error with its path
/// (two `primary` colours are a mistake, not a choice), nesting stops at `maximumDepth`
/// levels, lone `\u` surrogates and numbers beyond `Double`'s range are malformed JSON, and a
/// UTF-8 byte-order mark is skipped. The parser's typed reasons are worded as this module has
/// always worded them; line and column are the parser's.
enum ThemeJSONReader {
    /// Values may nest this many levels (the outermost value is level 1).
    static let maximumDepth = 256

    static let options = JSONParsingOptions(
        duplicateKeys: .refuse, loneSurrogates: .refuse, numberRange: .finite,
        maximumDepth: maximumDepth, skipsByteOrderMark: true
    )

    /// Parses one JSON document of at most `maximumSize` bytes.
    ///
    /// - Throws: `ThemeDecodingError.tooLarge` (before reading anything), `.notUTF8`,
    ///   `.malformedJSON` or `.duplicateKey`: the first problem in the file.
    /// - Complexity: O(n) in the length of `bytes`.
    static func parse(_ bytes: [UInt8], maximumSize: Int) throws(ThemeDecodingError) -> JSONValue {
        guard bytes.count <= maximumSize else { throw .tooLarge(size: bytes.count, limit: maximumSize) }
        let bodyStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard String(validating: bytes[bodyStart...], as: UTF8.self) != nil else { throw .notUTF8 }
        do throws(JSONParseError) {
            return try JSONParser(options: options).parse(bytes)
        } catch {
            throw themeError(error, in: bytes)
        }
    }

    /// Every structure problem in `bytes`, in text order, each with its line and column, as
    /// issues at the JSON path where each sits: StateHubJSON's collecting parse, which reads on
    /// after duplicate keys, numbers out of range, lone surrogates, missing commas and colons
    /// and trailing commas. Called once the strict parse has failed, so valid themes pay
    /// nothing. O(n).
    static func collectedIssues(_ bytes: [UInt8]) -> [ThemeIssue] {
        JSONParser(options: options).parseCollecting(bytes).problems.map { problem in
            let error = themeError(problem, in: bytes)
            let path = ThemeJSONPath(segments: segments(problem.path))
            return ThemeIssue(path: path.segments.isEmpty ? "$" : path.description, problem: .undecodable(error),
                              line: error.location?.line, column: error.location?.column)
        }
    }

    private static func segments(_ path: [JSONPathElement]) -> [ThemeJSONPath.Segment] {
        path.map { element -> ThemeJSONPath.Segment in
            switch element {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            }
        }
    }

    /// A parser error in this module's words.
    static func themeError(_ error: JSONParseError, in bytes: [UInt8]) -> ThemeDecodingError {
        let reason: String
        switch error.reason {
        case .duplicateKey:
            return .duplicateKey(path: ThemeJSONPath(segments: segments(error.path)).description, line: error.line, column: error.column)
        case .expectedValue(let found?): reason = "unexpected character \(JSONParseError.Reason.describe(found))"
        case .expectedValue(nil): reason = "unexpected end of input"
        case .expectedColon:
            if case .key(let key)? = error.path.last { reason = "expected ':' after key \"\(key)\"" } else { reason = "expected ':'" }
        case .expectedCommaOrObjectEnd: reason = "expected ',' or '}' in object"
        case .expectedCommaOrArrayEnd: reason = "expected ',' or ']' in array"
        case .controlCharacterInString: reason = "control character in string (escape it)"
        default: reason = error.reason.description
        }
        return .malformedJSON(line: error.line, column: error.column, reason: reason)
    }
}
