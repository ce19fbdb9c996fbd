import Testing
import Trace

@Suite("TraceRecorder live stream", .tags(.unit))
struct LiveStreamTests {
    @Test func streamDeliversRecordsInStepOrderAndFinishesOnClose() async throws {
        let recorder = TraceRecorder()
        recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")  // before subscribing
        let stream = recorder.liveRecords()
        #expect(recorder.liveSubscriberCount == 1)
        for i in 0..<5 {
            recorder.record(.nativeToWeb, channel: "nativeBridge", engine: "e", store: "cart",
                            type: "dispatch_action", seq: i, message: "{}")
        }
        try recorder.close()
        var received: [TraceRecord] = []
        for await record in stream { received.append(record) }  // ends because close() finished it
        #expect(received.map(\.step) == [1, 2, 3, 4, 5])
        #expect(received == Array(recorder.records.dropFirst()))
    }

    @Test func slowConsumerKeepsTheNewest() async throws {
        let recorder = TraceRecorder()
        let stream = recorder.liveRecords(bufferingNewest: 3)
        for _ in 0..<10 {
            recorder.record(.webToNative, channel: "bridge", engine: "e", type: "event", message: "{}")
        }
        try recorder.close()
        var steps: [Int] = []
        for await record in stream { steps.append(record.step) }
        #expect(steps == [7, 8, 9])
    }

    @Test func concurrentConsumerSeesRecordsLive() async throws {
        let recorder = TraceRecorder()
        let stream = recorder.liveRecords()
        let consumer = Task {
            var seen: [Int] = []
            for await record in stream {
                seen.append(record.step)
                if seen.count == 3 { break }
            }
            return seen
        }
        for _ in 0..<3 {
            recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
        }
        #expect(await consumer.value == [0, 1, 2])
    }

    @Test func cancellingTheConsumerUnsubscribes() async throws {
        let recorder = TraceRecorder()
        let stream = recorder.liveRecords()
        let consumer = Task { for await _ in stream {} }
        #expect(recorder.liveSubscriberCount == 1)
        consumer.cancel()
        await consumer.value
        #expect(recorder.liveSubscriberCount == 0)
        recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
    }

    @Test func subscribingAfterCloseGivesAFinishedStream() async throws {
        let recorder = TraceRecorder()
        try recorder.close()
        var count = 0
        for await _ in recorder.liveRecords() { count += 1 }
        #expect(count == 0)
        #expect(recorder.liveSubscriberCount == 0)
    }
}
