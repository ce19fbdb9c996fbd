import Synchronization
import Testing
@testable import Trace

@Suite("TraceRecorder in memory", .tags(.unit))
struct TraceRecorderTests {
    private func recordMutation(_ recorder: TraceRecorder, seq: Int) {
        recorder.record(
            .webToNative, channel: TraceChannel.nativeBridge, engine: "page-1", store: "cart",
            type: "apply_mutation", seq: seq,
            message: #"{"v":1,"storeId":"cart","seq":\#(seq),"type":"apply_mutation","payload":{}}"#)
    }

    @Test func stepsAreZeroBasedAndConsecutive() {
        let recorder = TraceRecorder()
        for seq in 1...5 { recordMutation(recorder, seq: seq) }
        #expect(recorder.records.map(\.step) == [0, 1, 2, 3, 4])
        #expect(recorder.records.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(recorder.recordedCount == 5)
        #expect(recorder.droppedCount == 0)
    }

    @Test func recordCarriesEveryFieldAndSizeAsCrossed() throws {
        let recorder = TraceRecorder()
        let message = #"{"id":"c1","ok":false,"error":{"code":"refused","message":"é"}}"#
        let record = try #require(recorder.record(
            .nativeToWeb, channel: TraceChannel.bridge, engine: "shop", type: "reply",
            message: message, note: "refused: not granted"))
        #expect(record.direction == .nativeToWeb)
        #expect(record.channel == "bridge")
        #expect(record.engine == "shop")
        #expect(record.store == nil)
        #expect(record.type == "reply")
        #expect(record.seq == nil)
        #expect(record.message == message)
        #expect(record.size == message.utf8.count)
        #expect(record.size == message.count + 1, "é is two UTF-8 bytes")
        #expect(record.note == "refused: not granted")
        #expect(recorder.records == [record])
    }

    @Test func ringBufferKeepsTheNewestInOrderAndCountsDropped() {
        let recorder = TraceRecorder(capacity: 4)
        for seq in 0..<10 { recordMutation(recorder, seq: seq) }
        #expect(recorder.records.count == 4)
        #expect(recorder.records.map(\.step) == [6, 7, 8, 9])
        #expect(recorder.droppedCount == 6)
        #expect(recorder.recordedCount == 10)
    }

    @Test func ringBufferExactlyFullDropsNothing() {
        let recorder = TraceRecorder(capacity: 3)
        for seq in 0..<3 { recordMutation(recorder, seq: seq) }
        #expect(recorder.records.map(\.step) == [0, 1, 2])
        #expect(recorder.droppedCount == 0)
        recordMutation(recorder, seq: 3)
        #expect(recorder.records.map(\.step) == [1, 2, 3])
        #expect(recorder.droppedCount == 1)
    }

    @Test func capacityZeroKeepsNothingButStillNumbers() {
        let recorder = TraceRecorder(capacity: 0)
        for seq in 0..<3 { recordMutation(recorder, seq: seq) }
        #expect(recorder.records.isEmpty)
        #expect(recorder.droppedCount == 3)
        #expect(recorder.recordedCount == 3)
    }

    @Test func defaultCapacityIsTenThousand() {
        #expect(TraceRecorder().capacity == 10_000)
    }

    @Test func timeIsMonotonicAndNonDecreasing() async throws {
        let recorder = TraceRecorder()
        for seq in 0..<200 { recordMutation(recorder, seq: seq) }
        try await Task.sleep(for: .milliseconds(5))
        recordMutation(recorder, seq: 200)
        let times = recorder.records.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let last = try #require(times.last)
        let first = try #require(times.first)
        #expect(last - first >= 5_000_000, "a 5 ms sleep shows in nanoseconds")
        #expect(recorder.elapsedNanoseconds >= last)
    }

    @Test func closedRecorderIgnoresRecordsButKeepsWhatItHas() throws {
        let recorder = TraceRecorder()
        recordMutation(recorder, seq: 1)
        try recorder.close()
        #expect(recorder.isClosed)
        let late = recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
        #expect(late == nil)
        #expect(recorder.records.count == 1)
        try recorder.close()  // idempotent
    }

    @Test func redactorSeesChannelAndTypeAndSizeStaysAsCrossed() throws {
        let recorder = TraceRecorder(redactor: TraceRedactor.only(
            channel: TraceChannel.bridge, TraceRedactor.jsonKeys(["token"])))
        let reply = #"{"id":"c1","ok":true,"data":{"userId":"u-42","token":"s3cr3t-abcdef"}}"#
        let bridged = try #require(recorder.record(
            .nativeToWeb, channel: TraceChannel.bridge, engine: "shop", type: "reply", message: reply))
        #expect(bridged.message == #"{"id":"c1","ok":true,"data":{"userId":"u-42","token":"[redacted]"}}"#)
        #expect(bridged.size == reply.utf8.count)
        let state = #"{"storeId":"user","payload":{"state":{"token":"kept"}}}"#
        let synced = try #require(recorder.record(
            .webToNative, channel: TraceChannel.nativeBridge, engine: "shop", store: "user",
            type: "sync_state", message: state))
        #expect(synced.message == state, "the redactor was limited to the bridge channel")
    }

    @Test func redactorReceivesTheRecordsChannelTypeAndMessage() {
        let seen = Mutex<[String]>([])
        let recorder = TraceRecorder(redactor: { channel, type, message in
            seen.withLock { $0.append("\(channel)|\(type)|\(message)") }
            return "x"
        })
        recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
        #expect(seen.withLock { $0 } == ["bridge|invoke|{}"])
        #expect(recorder.records.first?.message == "x")
        #expect(recorder.records.first?.size == 2)
    }
}
