import Testing
import Trace

@Suite("TraceRecorder under concurrency", .tags(.unit))
struct ConcurrencyTests {
    @Test func manyTasksGetUniqueConsecutiveSteps() async {
        let tasks = 64
        let perTask = 250
        let recorder = TraceRecorder(capacity: tasks * perTask)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for i in 0..<perTask {
                        recorder.record(
                            .webToNative, channel: TraceChannel.nativeBridge, engine: "engine-\(task)",
                            store: "s", type: "apply_mutation", seq: i, message: "{}")
                    }
                }
            }
        }
        let records = recorder.records
        #expect(records.count == tasks * perTask)
        #expect(records.map(\.step) == Array(0..<(tasks * perTask)), "steps are unique, gap-free and in order")
        let times = records.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "time follows step order")
        // Each task's own records keep its order.
        for task in [0, tasks / 2, tasks - 1] {
            let seqs = records.filter { $0.engine == "engine-\(task)" }.compactMap(\.seq)
            #expect(seqs == Array(0..<perTask))
        }
        #expect(recorder.droppedCount == 0)
    }

    @Test func concurrentRecordingWithAFileWritesEveryRecordOnce() async throws {
        let path = TemporaryFile.path("concurrent.ndjson")
        defer { TemporaryFile.remove(path) }
        let recorder = try TraceRecorder(capacity: 100, filePath: path, flushEvery: 16)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for i in 0..<200 {
                        recorder.record(.nativeToWeb, channel: "bridge", engine: "e\(task)", type: "event",
                                        seq: i, message: #"{"event":"tick","data":\#(i)}"#)
                    }
                }
            }
        }
        try recorder.close()
        let fromFile = try TraceFile.read(from: path)
        #expect(fromFile.map(\.step) == Array(0..<3200))
        #expect(recorder.records == Array(fromFile.suffix(100)))
        #expect(recorder.droppedCount == 3100)
    }
}
