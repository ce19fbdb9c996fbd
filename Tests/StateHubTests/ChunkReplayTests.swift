import JSEngine
import Testing
import Trace
@testable import StateHub

/// A trace whose messages went over the chunk cap showed
/// every `chunk` record as malformed in `trace show`, and `trace replay` failed on it. The
/// summaries are skipped; the rebuilt message recorded after them is what replays.
@Suite(.tags(.engine)) struct ChunkReplayTests {
    @Test func aTraceWithChunkedMessagesReplaysToTheLiveMirrorWithNoProblem() async throws {
        let recorder = TraceRecorder(capacity: 10_000)
        let hub = GlobalStateHub(configuration: .init(maximumMessageBytes: 4_096, trace: recorder))
        let engine = try JavaScriptEngine(configuration: .init(name: "chunks"))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(maxMessageBytes: 4_096)
        try await engine.execute("""
            const useRows = defineStore('rows', { state: () => ({ rows: [] }), actions: {
              fill(n) { const r = []; for (let i = 0; i < n; i++) r.push('row ' + i); this.rows = r; return r.length },
            } });
            useRows();
            """, sourceURL: "rows.js")
        _ = try await hub.dispatch(store: "rows", action: "fill", args: [2_000]) // about 20 KB: several chunks
        let records = recorder.records
        #expect(records.contains { $0.type == "chunk" }, "the test needs a chunked transfer")
        let replay = TraceReplay()
        var lines: [String] = []
        for record in records { if let line = replay.apply(record) { lines.append(line) } }
        #expect(!lines.contains { $0.contains("! ") }, "\(lines.filter { $0.contains("! ") })")
        // Replayed results answer no dispatch of the replaying hub: expected, as `trace replay` says.
        let problems = replay.problems.filter { if case .unmatchedResult = $0.kind { false } else { true } }
        #expect(problems.isEmpty, "\(problems)")
        #expect(replay.mirrors["rows"] == hub.state(of: "rows"))
        await engine.close()
    }
}
