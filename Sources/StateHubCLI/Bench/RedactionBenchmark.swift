import ArgumentParser
import Foundation
import StateHubJSON
import Trace

/// `statehub bench trace`: trace redaction throughput against StateHubJSON's tokenizer
/// alone (the floor: every redactor reads each token once), at three message sizes, to
/// check the O(n) claim of docs/trace.md (MB/s stays flat as messages grow 10,000×).
/// No JavaScript runs here, so there is no no-JIT column.
enum RedactionBenchmark {
    static func message(bytes target: Int) -> String {
        var rows: [String] = []
        var size = 0
        var i = 0
        while size < target {
            let row = #"{"id":\#(i),"name":"row \#(i)","token":"t-\#(i)-abcdef","nested":{"qty":\#(i % 7),"tags":["a","b"]}}"#
            rows.append(row)
            size += row.utf8.count + 1
            i += 1
        }
        return #"{"v":1,"storeId":"rows","messageId":"w1","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["rows"],"value":["# + rows.joined(separator: ",") + "]}]}]}}"
    }

    static func run(repetitions: Int) -> [Figure] {
        var figures: [Figure] = []
        for (label, bytes) in [("1 KB", 1_000), ("100 KB", 100_000), ("10 MB", 10_000_000)] {
            let text = message(bytes: bytes)
            let megabytes = Double(text.utf8.count) / 1_000_000
            let rounds = max(1, 20_000_000 / text.utf8.count)
            func measure(_ body: () -> Void) -> Double {
                var samples: [Double] = []
                for _ in 0..<max(1, repetitions) {
                    let start = ContinuousClock.now
                    for _ in 0..<rounds { body() }
                    let elapsed = ContinuousClock.now - start
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    samples.append(megabytes * Double(rounds) / seconds)
                }
                return median(samples)
            }
            var copy = text
            let tokenize = measure {
                copy.withUTF8 { bytes in
                    var tokenizer = JSONTokenizer(bytes: bytes)
                    while let token = try? tokenizer.next(), token.kind != .end {}
                }
            }
            let keys = TraceRedactor.jsonKeys(["token"])
            let jsonKeys = measure { _ = keys("nativeBridge", "apply_mutation", text) }
            let every = TraceRedaction().redactor
            let all = measure { _ = every("nativeBridge", "apply_mutation", text) }
            let base = "trace.tokenize_\(bytes)"
            figures.append(Figure(key: base, label: "tokenize only, \(label) message", unit: "MB/s", higherIsBetter: true, jit: tokenize))
            figures.append(Figure(key: "trace.jsonkeys_\(bytes)", label: "jsonKeys redaction, \(label)", unit: "MB/s", higherIsBetter: true, jit: jsonKeys, baselineKey: base))
            figures.append(Figure(key: "trace.every_kind_\(bytes)", label: "TraceRedaction (every kind), \(label)", unit: "MB/s", higherIsBetter: true, jit: all, baselineKey: base))
        }
        return figures
    }
}

struct TraceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trace", abstract: "Trace redaction throughput against the tokenizer alone, at 1 KB, 100 KB and 10 MB.")

    @OptionGroup var options: BenchOptions

    func run() async throws {
        var options = self.options
        options.jitOnly = true  // no JavaScript runs
        let repetitions = options.repetitions
        try await BenchRunner.run(name: "trace", options: options) { RedactionBenchmark.run(repetitions: repetitions) }
    }
}
