import ArgumentParser
import Foundation

/// `statehub bench [engine]`: benchmarks, each figure with and without the JIT.
///
/// JavaScriptCore reads its options once per process, so the no-JIT column comes from a
/// child process of this same binary run with `JSC_useJIT=false`, which prints its figures
/// as JSON (`--json`) for the parent to merge.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure StateHub: the raw engine baseline, and everything else against it.",
        discussion: "Figures are medians over repetitions; the no-JIT column runs in a child process with JSC_useJIT=false, as an in-process JSContext on iOS runs.",
        subcommands: [EngineBench.self],
        defaultSubcommand: EngineBench.self
    )
}

/// Options every benchmark subcommand shares.
struct BenchOptions: ParsableArguments {
    @Option(help: "Repetitions per figure; the median is reported.")
    var repetitions = 5

    @Flag(help: "Print figures as JSON (used for the no-JIT child process).")
    var json = false

    @Flag(help: "Skip the no-JIT column.")
    var jitOnly = false
}

struct EngineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine", abstract: "The raw-engine baseline.")

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchRunner.run(name: "engine", options: options) {
            try await EngineBenchmark(repetitions: options.repetitions).run()
        }
    }
}

enum BenchRunner {
    /// Measures in this process, merges the no-JIT child's figures, prints.
    static func run(name: String, options: BenchOptions, arguments: [String] = [], measure: () async throws -> [Figure]) async throws {
        var figures = try await measure()
        if options.json {
            let data = try JSONEncoder().encode(figures)
            Output.line(String(decoding: data, as: UTF8.self))
            return
        }
        if !options.jitOnly {
            let child = try childFigures(subcommand: name, repetitions: options.repetitions, arguments: arguments)
            for index in figures.indices {
                figures[index].noJIT = child.first { $0.key == figures[index].key }?.jit
            }
        }
        print(figures: figures)
    }

    static func childFigures(subcommand: String, repetitions: Int, arguments: [String]) throws -> [Figure] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench", subcommand, "--json", "--repetitions", String(repetitions)] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["JSC_useJIT"] = "false"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError.childFailed("exit status \(process.terminationStatus)") }
        let lastLine = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        do {
            return try JSONDecoder().decode([Figure].self, from: Data(lastLine.utf8))
        } catch {
            throw BenchmarkError.childFailed("unreadable output: \(error)")
        }
    }

    static func print(figures: [Figure]) {
        let labelWidth = max(10, figures.map(\.label.count).max() ?? 10)
        func cell(_ value: Double?) -> String {
            guard let value else { return "—".padding(toLength: 14, withPad: " ", startingAt: 0) }
            let text: String
            if value >= 100_000 { text = String(format: "%.3gM", value / 1_000_000) }
            else if value >= 100 { text = String(format: "%.0f", value) }
            else { text = String(format: "%.2f", value) }
            return String(repeating: " ", count: max(0, 14 - text.count)) + text
        }
        Output.line("figure".padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "            JIT         no JIT  unit")
        for figure in figures {
            Output.line(figure.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + " " + cell(figure.jit) + " " + cell(figure.noJIT) + "  " + figure.unit)
        }
    }
}
