/// One `console.*` call from JavaScript: its level and its arguments formatted as one line.
///
/// Arguments are joined by spaces: strings as they are, `Error`s with their stack, other
/// values as JSON (`undefined`, functions and symbols by name). Every message goes to the
/// engine's swift-log `Logger` (`debug`→debug, `log`/`info`→info, `warn`→warning,
/// `error`→error) and to `JavaScriptEngine.Configuration.onConsole` when set.
public struct ConsoleMessage: Sendable, Equatable {
    public enum Level: String, Sendable, Equatable, CaseIterable {
        case log, info, warn, error, debug
    }

    public var level: Level
    public var text: String

    public init(level: Level, text: String) {
        self.level = level
        self.text = text
    }
}
