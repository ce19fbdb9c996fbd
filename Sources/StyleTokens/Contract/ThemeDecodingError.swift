/// Why a theme document could not be read as a `ThemeContract`.
///
/// Decoding stops at the first structural problem (bad JSON, a missing required field,
/// a value of the wrong JSON type); semantic problems are collected all at once by
/// `ThemeValidator` afterwards.
public enum ThemeDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is larger than the reader accepts (`ThemeJSONDecoder.maximumSize`); nothing was read.
    case tooLarge(size: Int, limit: Int)
    /// The bytes are not valid UTF-8.
    case notUTF8
    /// The text is not JSON; `line` and `column` are 1-based.
    case malformedJSON(line: Int, column: Int, reason: String)
    /// The same key appears twice in one object; `line` and `column` (1-based) are the second one's.
    case duplicateKey(path: String, line: Int, column: Int)
    /// A required field is absent.
    case missingField(path: String)
    /// A field holds the wrong JSON type.
    case wrongType(path: String, expected: String, found: String)

    /// Where the problem is, as a JSON path (`$` for the whole document).
    public var path: String {
        switch self {
        case .notUTF8, .malformedJSON, .tooLarge: "$"
        case .duplicateKey(let path, _, _), .missingField(let path), .wrongType(let path, _, _): path
        }
    }

    /// The 1-based line and column a JSON syntax error names (`nil` for the others).
    public var location: (line: Int, column: Int)? {
        switch self {
        case .malformedJSON(let line, let column, _), .duplicateKey(_, let line, let column): (line, column)
        default: nil
        }
    }

    /// Whether the error kept the document from being parsed at all, so the schema and the
    /// values were not checked (anything else is found by those checks).
    public var stopsSchemaChecks: Bool {
        switch self {
        case .notUTF8, .malformedJSON, .duplicateKey, .tooLarge: true
        case .missingField, .wrongType: false
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .tooLarge(let size, let limit): "the file is \(size) bytes, more than the \(limit) a theme may have"
        case .notUTF8: "the file is not valid UTF-8"
        case .malformedJSON(let line, let column, let reason): "malformed JSON at line \(line), column \(column): \(reason)"
        case .duplicateKey(_, let line, let column): "duplicate key at line \(line), column \(column)"
        case .missingField: "required field is missing"
        case .wrongType(_, let expected, let found): "expected \(expected), found \(found)"
        }
    }

    public var description: String { "\(path): \(reason)" }
}
