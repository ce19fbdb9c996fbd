import Foundation
import Testing
@testable import Trace

@Suite("TraceRecorder with an NDJSON file", .tags(.unit))
struct RecorderFileTests {
    @Test func recordsReachTheFileOnFlushAndClose() throws {
        let path = TemporaryFile.path("recorder.ndjson")
        defer { TemporaryFile.remove(path) }
        let recorder = try TraceRecorder(capacity: 2, filePath: path, redactor: TraceRedactor.jsonKeys(["token"]),
                                         flushEvery: 1_000)
        #expect(recorder.filePath == path)
        recorder.record(.webToNative, channel: "bridge", engine: "shop", type: "invoke",
                        message: #"{"v":1,"id":"c1","action":"getInitialData","payload":{}}"#)
        #expect(try TraceFile.read(from: path).isEmpty, "nothing written before a full batch or a flush")
        try recorder.flush()
        #expect(try TraceFile.read(from: path).count == 1)
        recorder.record(.nativeToWeb, channel: "bridge", engine: "shop", type: "reply",
                        message: #"{"id":"c1","ok":true,"data":{"token":"abc"}}"#)
        recorder.record(.webToNative, channel: "nativeBridge", engine: "shop", store: "cart", type: "sync_state",
                        seq: 1, message: #"{"storeId":"cart"}"#)
        try recorder.close()
        let fromFile = try TraceFile.read(from: path)
        #expect(fromFile.map(\.step) == [0, 1, 2])
        #expect(fromFile[1].message == #"{"id":"c1","ok":true,"data":{"token":"[redacted]"}}"#)
        #expect(Array(fromFile.suffix(2)) == recorder.records, "memory keeps the last 2, the file keeps all")
    }

    @Test func fullBatchesAreWrittenWithoutFlush() throws {
        let path = TemporaryFile.path("batches.ndjson")
        defer { TemporaryFile.remove(path) }
        let recorder = try TraceRecorder(filePath: path, flushEvery: 10)
        for i in 0..<25 {
            recorder.record(.nativeToWeb, channel: "nativeBridge", engine: "e", store: "s",
                            type: "dispatch_action", message: #"{"n":\#(i)}"#)
        }
        // The background writer takes a batch once 10 are pending: the writes scheduled so far
        // are done once the writer's queue has run up to here.
        recorder.writer.sync {}
        let written = try TraceFile.read(from: path).map(\.step)
        #expect(written.count >= 10, "a full batch is written without flush()")
        #expect(written == Array(0..<written.count), "in step order, no gaps")
        try recorder.close()
        #expect(try TraceFile.read(from: path).map(\.step) == Array(0..<25))
    }

    @Test func fileIsWrittenWhenTheRecorderGoesAway() throws {
        let path = TemporaryFile.path("deinit.ndjson")
        defer { TemporaryFile.remove(path) }
        do {
            let recorder = try TraceRecorder(filePath: path)
            recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
        }
        #expect(try TraceFile.read(from: path).count == 1)
    }

    @Test func unopenableFileThrowsNamingThePath() {
        let path = "/nonexistent-dir-\(UUID().uuidString)/trace.ndjson"
        do {
            _ = try TraceRecorder(filePath: path)
            Issue.record("opening a file in a missing directory succeeded")
        } catch {
            guard case .cannotOpen(let failedPath, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedPath == path)
            #expect(!reason.isEmpty)
            #expect(error.description.contains(path))
        }
    }

    @Test func existingFileIsTruncated() throws {
        let path = try TemporaryFile.write("old content that is not a trace\n")
        defer { TemporaryFile.remove(path) }
        let recorder = try TraceRecorder(filePath: path)
        try recorder.close()
        #expect(try TraceFile.read(from: path).isEmpty)
    }

    @Test func writeFailureIsReportedByFlush() throws {
        // /dev/full accepts open but every write fails with ENOSPC (Linux).
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let recorder = try TraceRecorder(filePath: "/dev/full", flushEvery: 1)
        recorder.record(.webToNative, channel: "bridge", engine: "e", type: "invoke", message: "{}")
        #expect(recorder.records.count == 1, "memory recording continues")
        do {
            try recorder.flush()
            Issue.record("flush to /dev/full succeeded")
        } catch {
            guard case .writeFailed(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "/dev/full")
        }
        #expect(throws: TraceRecorderError.self) { try recorder.close() }
    }
}
