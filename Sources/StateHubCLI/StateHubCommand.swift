import ArgumentParser
import Foundation

/// `statehub`: run web store code natively, inspect traces, check themes, measure.
@main
struct StateHubCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statehub",
        abstract: "Host Pinia stores and web micro-apps in JavaScriptCore, natively.",
        version: StateHubVersion.text,
        subcommands: [EvalCommand.self, RunCommand.self, TraceCommand.self, ThemeCommand.self, BenchCommand.self, LeakCheckCommand.self]
            + StateHubCommand.cliCommands
            + [ServeCommand.self]
            + [SoakCommand.self]
            + [DocCommand.self] // stored Yjs updates
            + [TypesCommand.self]
            + [ReleaseCommand.self] // signed releases
    )

    // malformed arguments exit 2 in every command, as unreadable
    // files do (ArgumentParser's own usage errors would exit 64).
    static func main() async {
        do {
            // `run --dispatch` values reach ArgumentParser as one option (it is quadratic in repeats).
            var command = try parseAsRoot(DispatchArguments.gather(Array(CommandLine.arguments.dropFirst())))
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                // `--json` prints its object even when the parser refused the command line.
                if CommandLine.arguments.dropFirst().contains("--json") { RunReport.printUsageError(message(for: error)) }
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
