import ArgumentParser
import CapabilityBridge
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
        subcommands: [EngineBench.self, HubBench.self, BridgeBench.self, TraceBench.self, CollectionsBench.self]
            + [PoolBench.self]
            + [DispatchBench.self] // dispatch and 1 MB sync, with floors
            + [CRDTBench.self] // SharedDocument against Yjs and Yrs
            + [HTTPBaselineBench.self], // scripts/bench-server.sh's baseline (hidden)
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
                + TimerBenchmark(repetitions: options.repetitions).run()
        }
    }
}

struct HubBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hub", abstract: "The store hub, against the engine baseline and the naive way, in one run.")

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchRunner.run(name: "hub", options: options) {
            let baseline = try await EngineBenchmark(repetitions: options.repetitions).run()
            var hub = try await HubBenchmark(repetitions: options.repetitions).run()
            hub.append(BenchRunner.speedup(hub, key: "hub.sync_writes", over: "hub.naive_writes", label: "flush-sync writes vs naive", higherIsBetter: true))
            hub.append(BenchRunner.speedup(hub, key: "hub.naive_round_trip", over: "hub.round_trip_p50", label: "round trip: naive time / ours", higherIsBetter: true))
            hub.append(BenchRunner.speedup(hub, key: "hub.naive_round_trip", over: "hub.page_round_trip_p50", label: "round trip on the page's executor: naive / ours", higherIsBetter: true))
            return baseline + hub
        }
    }
}

struct PoolBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pool",
        abstract: "Opening a micro-app: take a warm page and load a 20 KB store bundle to its first mirror, against a cold start, in one run.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Takes per repetition (half of them hydrate the store from a snapshot); a quarter as many cold starts.")
    var samples = 40

    func run() async throws {
        let samples = self.samples
        try await BenchRunner.run(name: "pool", options: options, arguments: ["--samples", String(samples)]) {
            try await PoolBenchmark(repetitions: options.repetitions, samples: samples).run()
        }
    }
}

struct BridgeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bridge", abstract: "The capability bridge's invoke round trip, against the engine baseline, in one run.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Sequential calls per round.")
    var iterations = 10_000

    func run() async throws {
        let iterations = self.iterations
        try await BenchRunner.run(name: "bridge", options: options, arguments: ["--iterations", String(iterations)]) {
            let baseline = try await EngineBenchmark(repetitions: options.repetitions).run()
            let result = try await BridgeBenchmark.run(iterations: iterations, rounds: options.repetitions)
            return baseline + [
                Figure(key: "bridge.transport_p50", label: "bare page round trip (postMessage → send), p50", unit: "µs", higherIsBetter: false, jit: result.baselineP50Micros, baselineKey: "engine.native_to_js_us"),
                Figure(key: "bridge.invoke_p50", label: "invokeNative round trip, sync handler, p50", unit: "µs", higherIsBetter: false, jit: result.p50Micros, baselineKey: "bridge.transport_p50"),
                Figure(key: "bridge.invoke_p99", label: "invokeNative round trip, sync handler, p99", unit: "µs", higherIsBetter: false, jit: result.p99Micros, baselineKey: "bridge.transport_p50"),
                Figure(key: "bridge.invoke_rate", label: "invokeNative calls/s, sync handler", unit: "calls/s", higherIsBetter: true, jit: result.callsPerSecond, baselineKey: "engine.js_to_native"),
                Figure(key: "bridge.async_p50", label: "invokeNative round trip, async handler, p50", unit: "µs", higherIsBetter: false, jit: result.asyncP50Micros, baselineKey: "bridge.transport_p50"),
                Figure(key: "bridge.async_p99", label: "invokeNative round trip, async handler, p99", unit: "µs", higherIsBetter: false, jit: result.asyncP99Micros, baselineKey: "bridge.transport_p50"),
            ]
        }
    }
}

enum BenchRunner {
    /// A derived figure: `key`'s value divided by `over`'s, per column.
    static func speedup(_ figures: [Figure], key: String, over: String, label: String, higherIsBetter: Bool) -> Figure {
        let a = figures.first { $0.key == key }
        let b = figures.first { $0.key == over }
        func ratio(_ x: Double?, _ y: Double?) -> Double? { guard let x, let y, y > 0 else { return nil }; return x / y }
        return Figure(key: "\(key)/\(over)", label: label, unit: "×", higherIsBetter: higherIsBetter, jit: ratio(a?.jit, b?.jit))
    }

    /// Said on stderr before a debug build's figures: `swift build` makes one by default, and its
    /// figures are several times a release build's (docs/benchmarks.md has release figures only).
    static var buildNote: String? {
        #if DEBUG
        "statehub bench: this is a debug build; its figures are not comparable with docs/benchmarks.md "
            + "(build with `swift build -c release --product statehub`)"
        #else
        nil
        #endif
    }

    /// Measures in this process, merges the no-JIT child's figures, prints.
    static func run(name: String, options: BenchOptions, arguments: [String] = [], measure: () async throws -> [Figure]) async throws {
        if !options.json, let note = buildNote { Output.error(note) }
        var figures = try await measure()
        if options.json {
            let data = try JSONEncoder().encode(figures)
            Output.raw(String(decoding: data, as: UTF8.self)) // JSON for the parent: never cut (over 4,000 bytes with the floors)
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
        func ratio(_ figure: Figure, _ column: KeyPath<Figure, Double?>) -> String {
            guard let key = figure.baselineKey, let base = figures.first(where: { $0.key == key }),
                  let value = figure[keyPath: column], let baseValue = base[keyPath: column], baseValue > 0 else { return "" }
            let r = value / baseValue
            return r >= 10 ? String(format: "%.0f×", r) : String(format: "%.2f×", r)
        }
        func cell(_ value: Double?) -> String {
            guard let value else { return "—".padding(toLength: 14, withPad: " ", startingAt: 0) }
            let text: String
            if value >= 100_000 { text = String(format: "%.3gM", value / 1_000_000) }
            else if value >= 100 { text = String(format: "%.0f", value) }
            else { text = String(format: "%.2f", value) }
            return String(repeating: " ", count: max(0, 14 - text.count)) + text
        }
        Output.line("figure".padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "            JIT         no JIT  unit      ratio to baseline (JIT / no JIT)")
        for figure in figures {
            var line = figure.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + " " + cell(figure.jit) + " " + cell(figure.noJIT) + "  " + figure.unit.padding(toLength: 8, withPad: " ", startingAt: 0)
            if let key = figure.baselineKey {
                line += "  \(ratio(figure, \.jit)) / \(ratio(figure, \.noJIT)) of \(key)"
            }
            Output.line(line)
        }
    }
}
