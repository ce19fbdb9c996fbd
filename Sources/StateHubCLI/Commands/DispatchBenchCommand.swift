import ArgumentParser
import Foundation

/// `statehub bench dispatch`: the dispatch round trip and the 1 MB sync of `bench hub`, with
/// their floors, without the rest of `bench hub` (two figures, quick to repeat).
struct DispatchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "The dispatch round trip and the 1 MB sync, with the machine's wake-up floor and the sync's steps, in one run.")

    @OptionGroup var options: BenchOptions

    @Flag(help: "Only run round trips on the page's executor, printing no table: a loop to profile (perf record -- statehub bench dispatch --page-only).")
    var pageOnly = false

    @Flag(help: "Only run the hub's receive path without an engine (200,000 apply_mutation messages through receive, then as posted bytes, then 20 parses of the 1 MB state), printing no table: a loop to profile.")
    var receiveOnly = false

    @Flag(help: "Only run flush-sync mirrored writes (as hub.sync_writes, 1,000,000 writes a repetition), printing one rate a line: a loop to profile the whole write path.")
    var syncWritesOnly = false

    func run() async throws {
        if pageOnly {
            for _ in 0..<options.repetitions { _ = try await HubBenchmark().roundTripMicroseconds(count: 20_000, onPageExecutor: true) }
            return
        }
        if syncWritesOnly {
            for _ in 0..<options.repetitions {
                let rate = try await HubBenchmark().mirroredWritesPerSecond(flush: .sync, writes: 1_000_000)
                let alone = try await HubBenchmark().unmirroredWritesPerSecond(writes: 1_000_000)
                let bare = try await HubBenchmark().bareSubscriberWritesPerSecond(writes: 1_000_000)
                Output.raw(String(format: "flush-sync writes %.3fM/s (%.2f µs a write); not mirrored %.3fM/s (%.2f µs); bare subscriber %.3fM/s (%.2f µs)\n",
                                  rate / 1e6, 1e6 / rate, alone / 1e6, 1e6 / alone, bare / 1e6, 1e6 / bare))
            }
            return
        }
        if receiveOnly {
            // One line per repetition, to compare builds run one after the other: the figure of
            // `hub.native_apply` (wall clock, then the loop thread's CPU time, which other
            // processes move less) and the median of 20 parses of the 1 MB text (the same two).
            for _ in 0..<options.repetitions {
                let hub = HubBenchmark()
                let apply = try await hub.nativeApplyMicroseconds(messages: 200_000)
                let applyCPU = try await hub.nativeApplyMicroseconds(messages: 200_000, threadCPU: true)
                let postedCPU = try await hub.nativeApplyMicroseconds(messages: 200_000, threadCPU: true, asPosted: true)
                let parses = try await DispatchFloorBenchmark(repetitions: 1).megabyteParses(count: 20)
                Output.raw(String(format: "hub alone %.2f µs (CPU %.2f µs; as posted, CPU %.2f µs), 1 MB parse %.2f ms (CPU %.2f ms)\n",
                                  apply, applyCPU, postedCPU, median(parses.wall), median(parses.cpu)))
            }
            return
        }

        try await BenchRunner.run(name: "dispatch", options: options) {
            let hub = HubBenchmark(repetitions: options.repetitions)
            var roundTrips: [Double] = []
            var pageRoundTrips: [Double] = []
            var bigSyncs: [Double] = []
            for _ in 0..<options.repetitions {
                roundTrips.append(try await hub.roundTripMicroseconds(count: 2_000).0)
                pageRoundTrips.append(try await hub.roundTripMicroseconds(count: 2_000, onPageExecutor: true).0)
                bigSyncs.append(try await hub.megabyteSyncMilliseconds())
            }
            return [
                Figure(key: "hub.round_trip_p50", label: "action round trip native→JS→mirror, p50", unit: "µs", higherIsBetter: false, jit: median(roundTrips), baselineKey: "floor.engine_hop"),
                Figure(key: "hub.page_round_trip_p50", label: "round trip, caller on the page's executor, p50", unit: "µs", higherIsBetter: false, jit: median(pageRoundTrips)),
                Figure(key: "hub.sync_1mb", label: "sync a 1 MB state to the mirror", unit: "ms", higherIsBetter: false, jit: median(bigSyncs)),
            ] + (try await DispatchFloorBenchmark(repetitions: options.repetitions).run())
        }
    }
}
