/// An exception thrown by JavaScript and not caught there.
///
/// Read from the thrown value: for an `Error` object, its `name`, `message`, `stack`, and the
/// `line`, `column` and `sourceURL` JavaScriptCore attaches; a thrown non-Error value
/// (`throw 42`, `throw "oops"`) is reported as itself in `message` and `thrownValue`, with
/// no stack.
///
/// Syntax errors carry the line of the offending token but no column: JavaScriptCore
/// (2.50, through the C API) attaches only `line` and `sourceURL` to a `SyntaxError`, so
/// `column` is `nil` and so is `stack` (checked by `EvaluationTests`).
public struct JavaScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Error`, `TypeError`, `SyntaxError`…, or `nil` for a thrown non-Error value.
    public var name: String?
    public var message: String
    public var sourceURL: String?
    public var line: Int?
    public var column: Int?
    /// The JavaScript stack, one frame a line (`function@url:line:column`), or `nil`.
    public var stack: String?
    /// The thrown value as JSON when it has a JSON form (a non-Error value, for instance).
    public var thrownValue: JSONValue?

    public init(name: String? = nil, message: String, sourceURL: String? = nil, line: Int? = nil,
                column: Int? = nil, stack: String? = nil, thrownValue: JSONValue? = nil) {
        self.name = name
        self.message = message
        self.sourceURL = sourceURL
        self.line = line
        self.column = column
        self.stack = stack
        self.thrownValue = thrownValue
    }

    /// `FILE:LINE:COLUMN: Name: message`, the form compilers and the CLI print.
    public var description: String {
        var location = sourceURL ?? "<script>"
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        let title = name.map { "\($0): \(message)" } ?? message
        return "\(location): \(title)"
    }
}
