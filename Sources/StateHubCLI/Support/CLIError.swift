import ArgumentParser
import Foundation
import Synchronization

/// Errors the CLI reports as one line on stderr, each with its exit code.
enum CLIError: Error, CustomStringConvertible {
    /// Exit 2: a file named on the command line cannot be read.
    case unreadableFile(path: String, reason: String)
    /// Exit 2: an argument is malformed.
    case badArgument(String)

    var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "statehub: cannot read \(path): \(reason)"
        case .badArgument(let why): "statehub: \(why)"
        }
    }

    var exitCode: ExitCode { ExitCode(2) }

    /// Prints the error and exits with its code.
    func exit() -> ExitCode {
        Output.error(description)
        return exitCode
    }
}

/// stdout and stderr, unbuffered enough for interleaved console output. StateHub's own lines
/// are cut to a few KB with a note, so a huge value cannot flood a terminal or a log; a
/// script's own console output passes through whole, as node prints it (tools print JSON).
enum Output {
    /// The `--json` report being filled, if any: stdout is then kept for its one object.
    private static let report = Mutex<RunReport?>(nil)

    static func setReport(_ value: RunReport?) {
        report.withLock { $0 = value }
    }

    /// Locations in bundled ES modules are mapped back to their sources (``SourceMaps``).
    /// Under `--json` this goes to stderr: stdout holds the JSON object alone.
    static func line(_ text: String) {
        let handle = report.withLock { $0 == nil } ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data((cut(SourceMaps.shared.rewrite(text)) + "\n").utf8))
    }

    /// A diagnostic: stderr, and the `--json` report's `diagnostics`.
    static func error(_ text: String) {
        let mapped = cut(SourceMaps.shared.rewrite(text))
        report.withLock { $0 }?.noteDiagnostic(mapped)
        FileHandle.standardError.write(Data((mapped + "\n").utf8))
    }

    /// A script's own `console.log` / `info` / `debug`: whole, on stdout (stderr under `--json`).
    static func consoleLine(_ text: String) {
        let handle = report.withLock { $0 == nil } ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data((SourceMaps.shared.rewrite(text) + "\n").utf8))
    }

    /// A script's own `console.warn` / `console.error`: whole, on stderr, never a diagnostic.
    static func consoleError(_ text: String) {
        FileHandle.standardError.write(Data((SourceMaps.shared.rewrite(text) + "\n").utf8))
    }

    /// Raw output (JSON for machines): never cut.
    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static func cut(_ text: String) -> String {
        guard text.utf8.count > 4_000 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).cutLine() }.joined(separator: "\n")
    }
}
