import CapabilityBridge
import Testing

@Suite("Benchmark entry point", .tags(.engine))
struct BenchmarkTests {
    @Test func producesPlausibleFigures() async throws {
        let result = try await BridgeBenchmark.run(iterations: 300, rounds: 3)
        #expect(result.iterations == 300 && result.rounds == 3)
        #expect(result.p50Micros > 0 && result.p99Micros >= result.p50Micros)
        #expect(result.baselineP50Micros > 0 && result.callsPerSecond > 0)
        #expect(result.jsonValue["target_p50_us"] == 20)
        #expect(result.summary.contains("ratio to baseline"))
    }
}
