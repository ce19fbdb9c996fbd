import ArgumentParser

/// `statehub soak`: two pages, native dispatches and random writes for a while, checked at
/// every quiet point (docs/reliability.md).
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run two pages with native dispatches and random writes; check mirror == pages at every quiet point and flat memory.",
        discussion: "Exit status: 0 when every check held; 1 on a divergence or growing memory; 2 on bad arguments."
    )

    @Option(help: "How long to run, in seconds (default 600: ten minutes).")
    var seconds: Int = 600

    @Option(help: "Seed of the random schedule.")
    var seed: UInt64 = 20261123

    func validate() throws {
        guard (1...86_400).contains(seconds) else { throw ValidationError("--seconds must be between 1 and 86400") }
    }

    func run() async throws {
        do {
            let result = try await Soak(duration: .seconds(seconds), seed: seed, log: { print($0) }).run()
            print("soak: \(seconds) s, \(result.rounds) quiet points checked, \(result.dispatches) dispatches kept, \(result.discarded) failed truthfully (retryable), \(result.writes) page writes; RSS \(result.rssAfterWarmUp / 1024) MiB after warm-up, \(result.rssAtEnd / 1024) MiB at the end, peak \(result.rssPeak / 1024) MiB")
        } catch let failure as Soak.Failure {
            Output.error(failure.description)
            throw ExitCode(1)
        }
    }
}
