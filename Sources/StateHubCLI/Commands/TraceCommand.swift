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
        subcommands: [Show.self, Replay.self, View.self]
    )

    /// Reads a trace; a cut last line (a killed writer) is reported and the rest is read.
    static func read(_ path: String, maximumLineBytes: Int) throws -> [TraceRecord] {
        guard maximumLineBytes > 0 else { throw CLIError.badArgument("--max-line-bytes must be at least 1, not \(maximumLineBytes)").exit() }
        do {
            let recovered = try TraceFile.readRecovering(from: path, maximumLineBytes: maximumLineBytes)
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
            abstract: "Print a readable timeline: each step with its action, and old → new for every change to the mirrors.")

        @Argument(help: "An NDJSON trace file.")
        var file: String

        @Option(help: "The longest trace line read, in bytes (a longer one is refused with its line number).")
        var maxLineBytes: Int = TraceFile.defaultMaximumLineBytes

        @Flag(help: "Print one JSON object per step (step, type, store, action, summary, changes with old and new).")
        var json = false

        func run() async throws {
            let records = try TraceCommand.read(file, maximumLineBytes: maxLineBytes)
            let model = TimelineModel(records: records)
            if json {
                for step in model.steps { Output.raw(step.json.jsonText()) }
                return
            }
            let replay = TraceReplay()
            var byStep: [Int: TimelineModel.Step] = [:]
            for step in model.steps { byStep[step.step] = step }
            var lastAction: String?
            // Replay as the timeline is written, so each line also gets the problems the hub saw.
            Output.line(TraceTimeline.render(records, describe: { record in
                let problems = (replay.apply(record) ?? "").split(separator: "\n").filter { $0.hasPrefix("! ") }.map(String.init)
                guard let step = byStep[record.step] else { return problems.isEmpty ? nil : problems.joined(separator: "\n") }
                var lines: [String] = []
                if let action = step.action, action != lastAction { lines.append("in \(action)") }
                if let inner = step.innerAction { lines.append("by \(inner)") }
                lastAction = step.action ?? (step.channel == TraceChannel.bridge ? lastAction : nil)
                if let summary = step.summary, record.type != "sync_state" { lines.append(summary.cutLine(limit: 300)) }
                lines += step.changes.map {
                    "\($0.refused ? "refused: " : "")\(step.store ?? "?")\($0.kind == "snapshot" ? " " : ".")\($0.text)".cutLine(limit: 300)
                }
                lines += problems
                return lines.isEmpty ? nil : lines.joined(separator: "\n")
            }))
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the mirrors from a trace and print the state at step N (the end by default).")

        @Argument(help: "An NDJSON trace file.")
        var file: String

        @Option(help: "The longest trace line read, in bytes (a longer one is refused with its line number).")
        var maxLineBytes: Int = TraceFile.defaultMaximumLineBytes

        @Option(help: "The last step to apply (as numbered by `trace show`).")
        var until: Int?

        func run() async throws {
            let records = try TraceCommand.read(file, maximumLineBytes: maxLineBytes)
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

    struct View: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Look at a trace as a timeline in a browser: served on 127.0.0.1, or written as one HTML file.",
            discussion: """
                Steps are grouped under the action that caused them (native dispatches, and actions \
                the page started itself when the plugin tagged them), with old → new for every \
                change; a slider moves through time and shows the whole state at the selected \
                step; filters by store and by channel (store sync, bridge); bridge calls inline. \
                The page is self-contained: no network, nothing loaded from elsewhere.
                """)

        @Argument(help: "An NDJSON trace file.")
        var file: String

        @Option(help: "The longest trace line read, in bytes (a longer one is refused with its line number).")
        var maxLineBytes: Int = TraceFile.defaultMaximumLineBytes

        @Option(help: "Write the page to this file and exit instead of serving it.")
        var html: String?

        @Option(help: "Port on 127.0.0.1 (0: any free port).")
        var port: Int = 0

        func run() async throws {
            guard (0...65_535).contains(port) else { throw CLIError.badArgument("--port must be 0…65535, not \(port)").exit() }
            let records = try TraceCommand.read(file, maximumLineBytes: maxLineBytes)
            let page = TimelinePage.html(for: TimelineModel(records: records), title: (file as NSString).lastPathComponent)
            if let html {
                do { try page.write(toFile: html, atomically: true, encoding: .utf8) } catch {
                    throw CLIError.badArgument("cannot write \(html): \(error.localizedDescription)").exit()
                }
                Output.line("wrote \(html) (\(records.count) steps)")
                return
            }
            let (fd, actual): (Int32, UInt16)
            do { (fd, actual) = try LoopbackServer.listen(port: UInt16(port)) } catch {
                Output.error("statehub: \(error)")
                throw ExitCode(1)
            }
            Output.line("serving the timeline of \(file) at http://127.0.0.1:\(actual)/ (Ctrl-C to stop)")
            LoopbackServer.serve(fd, page: Array(page.utf8))
        }
    }
}
