import ArgumentParser
import Foundation
import JSEngine
import StateHub
import Trace

/// `statehub trace show FILE` and `statehub trace replay FILE [--until N]`.
struct TraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Read a trace recorded with --trace.",
        subcommands: [Show.self, Replay.self]
    )

    /// Reads a trace; a cut last line (a killed writer) is reported and the rest is read.
    static func read(_ path: String) throws -> [TraceRecord] {
        do {
            let recovered = try TraceFile.readRecovering(from: path)
            if let line = recovered.cutLine {
                Output.error("statehub: \(path):\(line): the last line is cut (the recording process was killed?); read the \(recovered.records.count) records before it")
            }
            return recovered.records
        } catch {
            if case .unreadable = error { throw CLIError.unreadableFile(path: path, reason: "no such file or unreadable").exit() }
            Output.error("statehub: \(path): \(error)")
            throw ExitCode(2)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a readable timeline, with the state change each step made to the mirrors.")

        @Argument(help: "An NDJSON trace file.")
        var file: String

        func run() async throws {
            let records = try TraceCommand.read(file)
            let replay = TraceReplay()
            // Replay as the timeline is written, so each line gets the change it made.
            Output.line(TraceTimeline.render(records, describe: { replay.apply($0) }))
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the mirrors from a trace and print the state at step N (the end by default).")

        @Argument(help: "An NDJSON trace file.")
        var file: String

        @Option(help: "The last step to apply (as numbered by `trace show`).")
        var until: Int?

        func run() async throws {
            let records = try TraceCommand.read(file)
            if let until, until < 0 || !records.contains(where: { $0.step >= until }) {
                Output.error("statehub: --until \(until) is outside the trace (steps \(records.first?.step ?? 0)…\(records.last?.step ?? 0))")
                throw ExitCode(2)
            }
            let mirrors = TraceReplay.mirrors(after: records, until: until)
            let last = until ?? records.last?.step ?? 0
            Output.line("state at step \(last):")
            for storeId in mirrors.keys.sorted() {
                Output.line("\(storeId) = \(mirrors[storeId]?.prettyText() ?? "null")")
            }
        }
    }
}
