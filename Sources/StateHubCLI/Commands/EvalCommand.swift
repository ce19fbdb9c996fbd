import ArgumentParser
import JSEngine
import StateHub
import Logging

/// `statehub eval FILE...`: runs scripts in one engine with the store runtime loaded first.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate scripts in order in one engine (store runtime loaded first), then run timers until idle.",
        discussion: """
            Exit status: 0 on success; 1 on an uncaught exception or an unhandled promise \
            rejection (printed as FILE:LINE:COLUMN: message, then the stack, on stderr); \
            2 when a file cannot be read. Scripts are classic scripts, not ES modules.
            """
    )

    @Argument(help: "Script files, evaluated in order.")
    var files: [String]

    @Option(help: "Stop a script that runs longer than this many seconds.")
    var timeLimit: Double = 30

    @Flag(help: "Do not load the store runtime (createPinia, defineStore, ref, …) first.")
    var bare = false

    func run() async throws {
        let scripts: [ScriptFile]
        do { scripts = try ScriptFile.readAll(files) } catch { throw error.exit() }
        let engine = try JavaScriptEngine(configuration: .init(
            name: "eval",
            executionTimeLimit: .milliseconds(Int(timeLimit * 1000)),
            logger: Logger(label: "statehub.eval", factory: { _ in SwiftLogNoOpLogHandler() }),
            onConsole: ConsolePrinter.handler
        ))
        do {
            if !bare {
                for (path, source) in StoreScripts.piniaRuntime {
                    try await engine.execute(source, sourceURL: path)
                }
            }
            for script in scripts {
                try await engine.execute(script.source, sourceURL: script.path)
                try await failOnUnhandled(engine)
            }
            try await engine.waitUntilIdle(timeout: .seconds(3600))
            try await failOnUnhandled(engine)
        } catch let error as JavaScriptError {
            Output.error(ConsolePrinter.describe(error))
            throw ExitCode(1)
        } catch let error as EngineError {
            Output.error("statehub: \(error)")
            throw ExitCode(1)
        }
    }

    private func failOnUnhandled(_ engine: JavaScriptEngine) async throws {
        if let first = await engine.unhandledErrors.first {
            let prefix = first.kind == .unhandledRejection ? "unhandled promise rejection: " : "uncaught exception: "
            var error = first.error
            error.message = prefix + error.message
            throw error
        }
    }
}
