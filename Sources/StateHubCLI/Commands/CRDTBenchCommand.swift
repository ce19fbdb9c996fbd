import ArgumentParser
import Foundation

/// `statehub bench crdt`: SharedDocument against Yjs (node) and Yrs (pycrdt) in one run.
struct CRDTBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crdt",
        abstract: "SharedDocument beside Yjs on node and Yrs through pycrdt: crdt-benchmarks B1, B2, B4.",
        discussion: "Needs node with NODE_PATH=/usr/share/nodejs (Debian's node-yjs) and python3 with pycrdt, as the tests do. Build with -c release before measuring."
    )

    @Option(help: "Repetitions per figure; the median is reported.")
    var repetitions = 5

    @Option(help: "Operations per B1/B2 workload.")
    var operations = 6_000

    @Option(help: "A josephg/editing-traces JSON file (optionally .gz) for B4; a synthetic trace of the same shape otherwise.")
    var trace: String?

    @Flag(help: "Measure SharedDocument only (for profiling); the table then has no Yjs or Yrs column.")
    var swiftOnly = false

    @Flag(help: "Measure what hostile updates within the sync server's budgets cost SharedDocument, and each later update (docs/sync.md §2.5), instead of B1/B2/B4.")
    var attacks = false

    func run() async throws {
        if attacks {
            Output.line("statehub bench crdt --attacks — process CPU time (ms)")
            for result in try CRDTAttackBenchmark().run() {
                Output.line(result.label.padding(toLength: 96, withPad: " ", startingAt: 0) + String(format: "%10.3f", result.milliseconds))
            }
            return
        }
        var ops: [CRDTWorkload.Op]?
        var traceLabel = "synthetic editing trace (20000 ops)"
        if let trace {
            do {
                ops = try CRDTWorkload.loadTrace(trace)
            } catch {
                throw CLIError.unreadableFile(path: trace, reason: "\(error)").exit()
            }
            traceLabel = "editing trace \(URL(fileURLWithPath: trace).lastPathComponent) (\(ops?.count ?? 0) ops)"
        }
        let benchmark = CRDTBenchmark(repetitions: repetitions, peers: !swiftOnly, workloads: CRDTWorkload.standard(count: operations, trace: ops, traceLabel: traceLabel))
        CRDTBenchmark.print(try benchmark.run(), repetitions: repetitions)
    }
}
