import Testing

/// `statehub bench` from a debug build (what `swift build` makes) says so before its figures:
/// they are several times a release build's and docs/benchmarks.md has release figures only.
@Suite(.tags(.integration)) struct BenchBuildNoteTests {
    @Test func aDebugBuildsBenchSaysItIsOne() async throws {
        let result = try await StateHubBinary.run(["bench", "pool", "--jit-only", "--repetitions", "1", "--samples", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pool: take + load"), "figures still printed: \(result.stdout)")
        #if DEBUG // the binary is built in the tests' configuration
        #expect(result.stderr.contains("this is a debug build"), "\(result.stderr)")
        #else
        #expect(!result.stderr.contains("debug build"), "\(result.stderr)")
        #endif
    }
}
