import CapabilityBridge
import JSEngine
import StateHub

/// How the CLI words a failure of a page: one `FILE:LINE: …` line (then a stack) that
/// says what happened and, where it can, what to do.
enum Report {
    /// - Parameters:
    ///   - file: the script being evaluated, when the failure happened at its top level.
    ///   - source: its text, to recognise an ES module behind a raw syntax error.
    ///   - stop: the engine's data about a stopped dispatch, whose own file and line are named.
    static func describe(_ error: any Error, file: String?, timeLimit: Duration, source: String?, stop: ScriptStop? = nil) -> String {
        if let engineError = error as? EngineError, case .executionTimeLimitExceeded = engineError {
            return stopped(engineError, file: file, timeLimit: timeLimit)
        }
        if let error = error as? JavaScriptError {
            if error.name == "SyntaxError",
               error.message.contains("import") || error.message.contains("export") || source.map(ModuleSyntax.looksLikeModule) == true {
                let place = (error.sourceURL ?? file ?? "<script>") + (error.line.map { ":\($0)" } ?? "")
                return "\(place): \(error.message)\n" + ModuleSyntax.hint(file: file ?? error.sourceURL ?? "FILE")
            }
            return ConsolePrinter.describe(error)
        }
        if let error = error as? StateHubError, case .stopped(let store, let action, _, let reason) = error {
            let place = stop.flatMap(Self.place(of:)) ?? location(in: reason) ?? "\(store).\(action)"
            return "\(place): stopped after \(timeLimit.secondsText) (\(store).\(action) ran past the time limit; --time-limit changes it). The page is still usable."
        }
        return "statehub: \(error)"
    }

    /// The `kind` of `run --json`'s `error` for a failure of a page: `stopped` (the time
    /// limit), `exception` (a script threw), else `error`.
    static func kind(of error: any Error) -> String {
        if let engineError = error as? EngineError, case .executionTimeLimitExceeded = engineError { return "stopped" }
        if let hubError = error as? StateHubError, case .stopped = hubError { return "stopped" }
        if error is JavaScriptError { return "exception" }
        return "error"
    }

    /// `FILE:LINE: stopped after N s` as the engine's ``ScriptStop`` gives it (the file being
    /// run when the stop names none), then what ran away.
    static func stopped(_ error: EngineError, file: String?, timeLimit: Duration) -> String {
        guard var stop = error.stop else {
            return "\(location(in: error.description) ?? file ?? "<script>"): stopped after \(timeLimit.secondsText) (the time limit; --time-limit changes it)"
        }
        if stop.sourceURL.map({ $0.isEmpty }) ?? true { stop.sourceURL = file }
        return describe(stop)
    }

    /// `FILE:LINE: stopped after N s (WHAT ran past the time limit; --time-limit changes it)`.
    static func describe(_ stop: ScriptStop) -> String {
        "\(stop) (\(stop.what) ran past the time limit; --time-limit changes it)"
    }

    /// A stop's data for `run --json`: `{"kind", "file", "line", "function", "seconds"}`,
    /// every field present for every kind (`null` when the engine does not know it), so a
    /// reader needs no per-kind cases.
    static func json(_ stop: ScriptStop) -> JSONValue {
        let file = stop.sourceURL.flatMap { $0.isEmpty ? nil : $0 }
        return .object([
            "kind": .string(stop.kind.rawValue),
            "file": file.map { .string(SourceMaps.shared.inputPath(of: $0)) } ?? .null,
            "line": stop.line.map { .number(Double($0)) } ?? .null,
            "function": stop.function.map(JSONValue.string) ?? .null,
            "seconds": .string(stop.seconds),
        ])
    }

    /// `FILE:LINE` of a stop, from its own fields (the module's path for a bundle), or `nil`
    /// when it names no file or line.
    static func place(of stop: ScriptStop) -> String? {
        guard let file = stop.sourceURL, !file.isEmpty, let line = stop.line else { return nil }
        return "\(SourceMaps.shared.inputPath(of: file)):\(line)"
    }

    /// A `FILE:LINE` (or `FILE:LINE:COLUMN`) the engine put in its description, if any: the
    /// one the text starts with (a file name may hold spaces and `:7 `), else the first word
    /// that has a `:` followed by digits.
    static func location(in text: String) -> String? {
        if let place = RunReport.Failure.leadingPlace(text) {
            return "\(place.file):\(place.line)" + (place.column.map { ":\($0)" } ?? "")
        }
        for word in text.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "," }) {
            var candidate = Substring(word)
            if candidate.hasSuffix(":") { candidate = candidate.dropLast() }
            let parts = candidate.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, !parts[0].isEmpty, let last = parts.last, !last.isEmpty, last.allSatisfy(\.isNumber) else { continue }
            return String(candidate)
        }
        return nil
    }
}

/// ES-module syntax in a classic script: what JavaScriptCore's raw error means.
enum ModuleSyntax {
    /// Whether the text has a top-level-looking `import … from` / `import '…'` / `export`.
    static func looksLikeModule(_ source: String) -> Bool {
        for line in source.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("import ") || trimmed.hasPrefix("import{") || trimmed.hasPrefix("export ") || trimmed.hasPrefix("export{") {
                return true
            }
        }
        return false
    }

    static func hint(file: String) -> String {
        """
            this is an ES module (import/export); pages run classic scripts. Bundle it first:
              statehub bundle \(file) -o \(file).bundle.js    (needs esbuild: apt-get install esbuild)
            (`run` and `eval` bundle files that start with import/export themselves when esbuild is installed.)
        """
    }
}
