import ArgumentParser

/// `statehub eval FILE...`: runs scripts in the page `run` builds, then runs timers until idle.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate scripts in order in the page `run` builds, then run timers until idle.",
        discussion: """
            The page and its limits are those of `run` (see `statehub run --help`): the Pinia \
            runtime with an active Pinia, the sync plugin mirrored by a hub, the bridge's page \
            shim (`document`) and client (`invokeNative`) against a headless shell; --bare \
            leaves out the runtime, the plugin and the hub.

            Exit status: 0 on success; 1 on an uncaught exception, an unhandled promise \
            rejection, an error thrown in a timer (printed as FILE:LINE:COLUMN: message, then \
            the stack, on stderr) or a stop (FILE:LINE: stopped after N s); 2 when a file \
            cannot be read or an option is malformed. Files that use import/export are \
            bundled with esbuild first.
            """
    )

    @Argument(help: "Script files, evaluated in order, each as a turn of its own (docs/cli.md).")
    var files: [String]

    @OptionGroup var page: PageOptions

    func run() async throws {
        let session = try await PageSession.start(options: page, files: files, name: "eval")
        session.guardian.armDeadline(after: session.idleLimit + session.timeLimit + .seconds(30), reason: "the page did not become idle")
        await session.settle()
        session.finish(failed: false)
    }
}
