import ArgumentParser
import CapabilityBridge
import Foundation
import JSEngine

/// The options `run` and `eval` share: one environment, one set of limits.
struct PageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Stop a script, an action or a timer callback that runs longer than this many seconds (0.01 at least).", valueName: "SECONDS"))
    var timeLimit: String = "10"

    @Option(help: ArgumentHelp("End the whole run after this many seconds of wall-clock time from the first file's load, whatever still runs or is pending (an await loop, a timer chain, an interval), saying what it was.", valueName: "SECONDS"))
    var wallLimit: String = "\(PageOptions.defaultWallLimitSeconds)"

    @Option(help: ArgumentHelp("Stop the run when the process uses more than this many MiB of memory (0: no limit).", valueName: "MIB"))
    var memoryLimit: String = "\(MemoryWatch.defaultLimitMiB)"

    @Option(help: "Record every message across the boundary to this NDJSON file.")
    var trace: String?

    @Option(help: ArgumentHelp("Also redact these action arguments in the trace (STORE.ACTION:INDEX, repeatable).", valueName: "STORE.ACTION:INDEX"))
    var redactArgument: [String] = []

    @Option(help: ArgumentHelp("Also redact object members with this name in the trace (repeatable; any case).", valueName: "NAME"))
    var redactKey: [String] = []

    @Option(help: "Batching of mirrored mutations: tick (one message per tick) or sync (one per mutation).")
    var flush: String = "tick"

    @Option(help: ArgumentHelp("Grant the page one more bridge action besides the framework ones (repeatable).", valueName: "ACTION"))
    var grant: [String] = []

    @Option(help: ArgumentHelp("The headless shell's getInitialData answer, a JSON object (default: demo values).", valueName: "JSON"))
    var initialData: String?

    @Option(help: ArgumentHelp("Which button the headless shell presses on every showAlert (0-based).", valueName: "INDEX"))
    var alertAnswer: Int = 0

    @Flag(help: "Do not load the store runtime, the sync plugin and the hub (a bare engine with the page shim).")
    var bare = false

    /// `--time-limit` as a duration: finite, at least 10 ms, at most a day (exit 2 otherwise).
    func timeLimitDuration() throws(CLIError) -> Duration {
        let limit = try Self.seconds(timeLimit, option: "--time-limit", maximum: 86_400)
        // StateHub's own runtime sets the page up under the same limit: at 1 ms its first
        // script was stopped and the run failed as "the page could not be set up".
        guard limit >= Self.shortestTimeLimit else {
            throw .badArgument("--time-limit must be at least 0.01 seconds (the page's own set-up runs under it), not \(timeLimit)")
        }
        return limit
    }

    /// The shortest `--time-limit`: set-up passed at 5 ms here, with the JIT and without.
    static let shortestTimeLimit: Duration = .milliseconds(10)

    /// `--wall-limit` as a duration: finite, positive, at most a day (exit 2 otherwise).
    func wallLimitDuration() throws(CLIError) -> Duration {
        try Self.seconds(wallLimit, option: "--wall-limit", maximum: 86_400)
    }

    /// Two minutes: far beyond what loading stores and running a few actions takes, short
    /// enough that a run that can never end (microtasks JavaScriptCore cannot stop, an
    /// interval) ends soon with a message.
    static let defaultWallLimitSeconds = 120

    /// `--memory-limit` in bytes, `nil` for no limit.
    func memoryLimitBytes() throws(CLIError) -> Int? {
        guard let mib = Int(memoryLimit), mib >= 0, mib <= 1 << 30 else {
            throw .badArgument("--memory-limit must be a whole number of MiB between 0 and \(1 << 30), not \(memoryLimit)")
        }
        return mib == 0 ? nil : mib << 20
    }

    func initialDataValue() throws(CLIError) -> JSONValue {
        guard let initialData else { return DemoShell.initialData }
        guard let value = try? JSONValue(parsing: initialData), case .object = value else {
            throw .badArgument("--initial-data must be a JSON object, e.g. '{\"token\":\"t\"}', not \(initialData)")
        }
        return value
    }

    /// Parses a number of seconds the way every CLI option does: decimal, finite, > 0, ≤ `maximum`.
    static func seconds(_ text: String, option: String, maximum: Double) throws(CLIError) -> Duration {
        guard let value = Double(text), value.isFinite, value > 0, value <= maximum else {
            throw .badArgument("\(option) must be a number of seconds above 0 and at most \(Int(maximum)), not \(text)")
        }
        return .milliseconds(max(1, Int((value * 1000).rounded())))
    }
}

extension Duration {
    /// `2 s`, `0.5 s`: how the CLI names a time limit.
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

extension Duration {
    /// `2.1 s`: a measured time, to a tenth of a second.
    var tenthsText: String {
        let tenths = (Double(components.seconds) * 10 + Double(components.attoseconds) / 1e17).rounded()
        return "\(tenths / 10) s"
    }
}
