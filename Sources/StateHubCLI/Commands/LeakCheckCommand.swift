import ArgumentParser
import JSEngine

/// `statehub leak-check`: evaluate / call / bind cycles and engines created and destroyed,
/// with resident memory and engine threads before and after (see docs/engine.md).
struct LeakCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leak-check",
        abstract: "Run engine cycles and create/destroy engines, printing memory and thread counts before and after.",
        discussion: "Build with --sanitize=address and run with ASAN_OPTIONS=detect_leaks=1 for LeakSanitizer's verdict on top."
    )

    @Option(help: "evaluate / call / bind cycles in one engine.")
    var cycles = 100_000

    @Option(help: "Engines created, used and destroyed one by one.")
    var engines = 1_000

    func run() async throws {
        let report = try await EngineLeakCheck(cycles: cycles, engines: engines).run()
        Output.line(report.description)
    }
}
