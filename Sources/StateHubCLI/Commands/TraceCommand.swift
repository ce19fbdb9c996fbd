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

    /// A trace read, with the note about a cut last line (a killed writer) when there was one.
    struct Loaded {
        var records: [TraceRecord]
        var cutLineNote: String?
    }

    /// Why a trace could not be read: exit 2, `message` on stderr (or in the `--json` object).
    struct ReadFailure: Error {
        var kind: String
        var message: String
        var line: Int?
    }

    /// Reads a trace; a cut last line is reported (``Loaded/cutLineNote``) and the rest is read.
    static func load(_ path: String, maximumLineBytes: Int) -> Result<Loaded, ReadFailure> {
        guard maximumLineBytes > 0 else {
            return .failure(ReadFailure(kind: "usage", message: "statehub: --max-line-bytes must be at least 1, not \(maximumLineBytes)"))
        }
        do {
            let recovered = try TraceFile.readRecovering(from: path, maximumLineBytes: maximumLineBytes)
            let note = recovered.cutLine.map { "statehub: \(path):\($0): the last line is cut (the recording process was killed?); read the \(recovered.records.count) records before it" }
            return .success(Loaded(records: recovered.records, cutLineNote: note))
        } catch {
            switch error {
            case .unreadable: return .failure(ReadFailure(kind: "unreadable", message: CLIError.unreadableFile(path: path, reason: "no such file or unreadable").description))
            case .invalidLine(let line, _), .lineTooLong(let line, _): return .failure(ReadFailure(kind: "invalidLine", message: "statehub: \(path):\(line): \(error)", line: line))
            case .unwritable: return .failure(ReadFailure(kind: "unreadable", message: "statehub: \(path): \(error)"))
            }
        }
    }

    /// Reads a trace for the text commands: failures print and exit 2; a cut line is printed.
    static func read(_ path: String, maximumLineBytes: Int) throws -> [TraceRecord] {
        switch load(path, maximumLineBytes: maximumLineBytes) {
        case .success(let loaded):
            if let note = loaded.cutLineNote { Output.error(note) }
            return loaded.records
        case .failure(let failure):
            Output.error(failure.message)
            throw ExitCode(2)
        }
    }

    /// `{"kind", "message", "file", "line"}` of a failure or note, for `--json`.
    static func errorJSON(kind: String, message: String, file: String, line: Int?) -> JSONValue {
        var object: JSONValue.ObjectMembers = ["kind": .string(kind), "message": .string(message), "file": .string(file)]
        if let line { object["line"] = .number(Double(line)) }
        return .object(object)
    }

    /// What replaying `records` the way the live hub applied them went wrong with: each
    /// record the hub could not apply (an operation that failed, a message refused as too
    /// deep or malformed, a sequence gap…), by step. Results that answer no dispatch are
    /// expected in a replay and are not listed.
    static func replayProblems(_ records: [TraceRecord], until: Int? = nil) -> (mirrors: [String: JSONValue], getters: [String: JSONValue], problems: [(record: TraceRecord, problem: String)]) {
        let replay = TraceReplay()
        var problems: [(TraceRecord, String)] = []
        for record in records where until.map({ record.step <= $0 }) ?? true {
            let before = replay.problems.count
            replay.apply(record)
            for problem in replay.problems.dropFirst(before) {
                if case .unmatchedResult = problem.kind { continue }
                problems.append((record, problem.description))
            }
        }
        var getters: [String: JSONValue] = [:]
        for storeId in replay.mirrors.keys {
            if let values = replay.getters(of: storeId), values != .object([:]) { getters[storeId] = values }
        }
        return (replay.mirrors, getters, problems)
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a readable timeline: each step with its action, and old → new for every change to the mirrors.",
            discussion: """
                Exit 0 (a cut last line, as a killed recorder leaves it, is noted on stderr and the \
                rest is shown); 2 when the file cannot be read or a line is not a record. --json \
                prints one object in every case: ok, file, steps, problems (records the replay \
                could not apply), warnings, and error when ok is false (docs/cli.md).
                """)

        @Argument(help: "An NDJSON trace file.")
        var file: String

        @Option(help: "The longest trace line read, in bytes (a longer one is refused with its line number).")
        var maxLineBytes: Int = TraceFile.defaultMaximumLineBytes

        @Flag(help: "Print one JSON object (not one per step): ok, file, steps (an array, one entry per step: step, type, store, action, summary, changes with old and new), problems, warnings, error.")
        var json = false

        func run() async throws {
            if json { try printJSON() }
            let records = try TraceCommand.read(file, maximumLineBytes: maxLineBytes)
            let model: TimelineModel
            do { model = try TimelineModel(records: records) } catch {
                throw CLIError.badArgument("\(file): \(error)").exit()
            }
            let replay = TraceReplay()
            var byStep: [Int: TimelineModel.Step] = [:]
            for step in model.steps { byStep[step.step] = step }
            // Replay as the timeline is written, so each line also gets the problems the hub saw.
            Output.line(TraceTimeline.render(records, describe: { record in
                let problems = (replay.apply(record) ?? "").split(separator: "\n").filter { $0.hasPrefix("! ") }.map(String.init)
                guard let step = byStep[record.step] else { return problems.isEmpty ? nil : problems.joined(separator: "\n") }
                var lines: [String] = []
                // Every record of an action names it: two calls of one action in a row are two actions.
                if let action = step.action { lines.append("in \(action)") }
                if let inner = step.innerAction { lines.append("by \(inner)") }
                if let summary = step.summary, record.type != "sync_state" { lines.append(summary.cutLine(limit: 300)) }
                lines += step.changes.map {
                    "\($0.refused ? "refused: " : "")\(step.store ?? "?")\($0.kind == "snapshot" ? " " : ".")\($0.text)".cutLine(limit: 300)
                }
                lines += problems
                return lines.isEmpty ? nil : lines.joined(separator: "\n")
            }))
        }

        /// `--json`: one object, whatever happens (docs/trace.md): `ok`, the steps, what the
        /// replay could not apply, the cut-line note; on a read failure `ok: false` and `error`.
        private func printJSON() throws -> Never {
            var object: JSONValue.ObjectMembers = ["file": .string(file)]
            switch TraceCommand.load(file, maximumLineBytes: maxLineBytes) {
            case .failure(let failure):
                Output.error(failure.message)
                object["ok"] = false
                object["error"] = TraceCommand.errorJSON(kind: failure.kind, message: failure.message, file: file, line: failure.line)
                object["steps"] = .array([])
                Output.raw(JSONValue.object(object).jsonText())
                Foundation.exit(2)
            case .success(let loaded):
                let model: TimelineModel
                do { model = try TimelineModel(records: loaded.records) } catch {
                    let message = "statehub: \(file): \(error)"
                    Output.error(message)
                    object["ok"] = false
                    object["error"] = TraceCommand.errorJSON(kind: "tooLarge", message: message, file: file, line: nil)
                    object["steps"] = .array([])
                    Output.raw(JSONValue.object(object).jsonText())
                    Foundation.exit(2)
                }
                object["ok"] = true
                object["steps"] = .array(model.steps.map(\.json))
                let problems = TraceCommand.replayProblems(loaded.records).problems
                object["problems"] = .array(problems.map { ["step": .number(Double($0.record.step)), "type": .string($0.record.type), "problem": .string($0.problem)] })
                var warnings: [JSONValue] = []
                if let note = loaded.cutLineNote {
                    Output.error(note)
                    warnings.append(TraceCommand.errorJSON(kind: "cutLine", message: note, file: file, line: nil))
                }
                object["warnings"] = .array(warnings)
                Output.raw(JSONValue.object(object).jsonText())
                Foundation.exit(0)
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the mirrors from a trace and print the state at step N (the end by default).",
            discussion: """
                Exit 0; 1 when a record cannot be applied (each is named on stderr with its step \
                and why, and the state printed leaves it out); 2 when the file cannot be read, a \
                line is not a record, or --until is outside the trace.
                """)

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
            let (mirrors, getters, problems) = TraceCommand.replayProblems(records, until: until)
            let last = until ?? records.last?.step ?? 0
            Output.line("state at step \(last):")
            for storeId in mirrors.keys.sorted() {
                Output.line("\(storeId) = \(mirrors[storeId]?.prettyText() ?? "null")")
                if let values = getters[storeId] { Output.line("\(storeId) getters = \(values.prettyText())") }
            }
            // A record the hub could not apply: the state above is not what the page had.
            guard problems.isEmpty else {
                for (record, problem) in problems {
                    Output.error("statehub: \(file): step \(record.step) (\(record.type)\(record.store.map { " of \($0)" } ?? "")) could not be applied: \(problem)")
                }
                Output.error("statehub: \(problems.count) record\(problems.count == 1 ? "" : "s") could not be applied; the state printed leaves \(problems.count == 1 ? "it" : "them") out")
                throw ExitCode(1)
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
            let page: String
            let model: TimelineModel
            do { model = try TimelineModel(records: records) } catch {
                throw CLIError.badArgument("\(file): \(error)").exit()
            }
            do { page = try TimelinePage.html(for: model, title: (file as NSString).lastPathComponent) } catch {
                throw error.exit()
            }
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
