import ArgumentParser

/// `statehub`: run web store code natively, inspect traces, check themes, measure.
@main
struct StateHubCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statehub",
        abstract: "Host Pinia stores and web micro-apps in JavaScriptCore, natively.",
        subcommands: [EvalCommand.self, RunCommand.self, TraceCommand.self, ThemeCommand.self, BenchCommand.self, LeakCheckCommand.self]
            + [DocCommand.self] // crdt
    )
}
