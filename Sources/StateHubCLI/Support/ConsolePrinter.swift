import JSEngine

/// Sends `console.*` from scripts to the terminal: `warn` and `error` to stderr, the rest to
/// stdout (to stderr as well under `run --json`, whose stdout is its JSON object).
enum ConsolePrinter {
    static let handler: @Sendable (ConsoleMessage) -> Void = { message in
        switch message.level {
        case .warn, .error: Output.consoleError(message.text)
        case .log, .info, .debug: Output.line(message.text)
        }
    }

    /// `FILE:LINE:COLUMN: message` then the stack, the form editors jump to.
    static func describe(_ error: JavaScriptError) -> String {
        var text = error.description
        if let stack = error.stack, !stack.isEmpty { text += "\n" + stack.split(separator: "\n").map { "    at \($0)" }.joined(separator: "\n") }
        return text
    }
}
