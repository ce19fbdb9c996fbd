import ArgumentParser
import Foundation

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

/// stdout and stderr, unbuffered enough for interleaved console output. Every line is cut
/// to a few KB with a note, so a huge value cannot flood a terminal or a log.
enum Output {
    /// Locations in bundled ES modules are mapped back to their sources (``SourceMaps``).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((cut(SourceMaps.shared.rewrite(text)) + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((cut(SourceMaps.shared.rewrite(text)) + "\n").utf8))
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
