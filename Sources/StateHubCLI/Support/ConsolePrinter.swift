import JSEngine

/// Sends `console.*` from scripts to the terminal: `warn` and `error` to stderr, the rest to
/// stdout (to stderr as well under `run --json`, whose stdout is its JSON object).
enum ConsolePrinter {
    static let handler: @Sendable (ConsoleMessage) -> Void = { message in
        switch message.level {
        // The sync plugin's own warnings (the one prefix it reports with: a trace that
        // cannot hide an argument, a message it dropped) are the run's diagnostics, in
        // `--json` too; a script's own output is not.
        case .warn, .error:
            if message.text.hasPrefix(pluginPrefix) { Output.error(message.text) } else { Output.consoleError(message.text) }
        case .log, .info, .debug: Output.consoleLine(message.text)
        }
    }

    /// What every warning of the sync plugin starts with (js/plugin/sync-plugin.js, `warn`).
    static let pluginPrefix = "[StateHubSync] "

    /// `FILE:LINE:COLUMN: message` then the stack, the form editors jump to.
    static func describe(_ error: JavaScriptError) -> String {
        var text = error.description
        if let stack = error.stack, !stack.isEmpty { text += "\n" + stack.split(separator: "\n").map { "    at \($0)" }.joined(separator: "\n") }
        return text
    }
}
