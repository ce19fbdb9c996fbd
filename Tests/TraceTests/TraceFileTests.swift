import Foundation
import Testing
@testable import Trace

@Suite("TraceFile NDJSON", .tags(.unit))
struct TraceFileTests {
    static let sample: [TraceRecord] = [
        TraceRecord(step: 0, time: 0, direction: .webToNative, channel: "nativeBridge", engine: "shop",
                    store: "cart", type: "sync_state", seq: 1,
                    message: #"{"v":1,"storeId":"cart","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"items":[]}}}"#),
        TraceRecord(step: 1, time: 3_201_000, direction: .nativeToWeb, channel: "bridge", engine: "shop",
                    type: "reply", message: #"{"id":"c1","ok":true,"data":{"token":"[redacted]","url":"https://a/b"}}"#,
                    note: "line1\nline2\t\"quoted\" \\ \u{01} ünï 🚀"),
        TraceRecord(step: 2, time: UInt64.max, direction: .webToNative, channel: "nativeBridge", engine: "shop",
                    store: "cart", type: "apply_mutation", seq: -3, size: 999, message: "not json {"),
    ]

    @Test func roundTripThroughAFile() throws {
        let path = TemporaryFile.path("roundtrip.ndjson")
        defer { TemporaryFile.remove(path) }
        try TraceFile.write(Self.sample, to: path)
        #expect(try TraceFile.read(from: path) == Self.sample)
    }

    /// `forEachRecord` streams: each record is handed over in file order, across the 1 MiB
    /// chunks, a last line without a newline included; a bad line stops it after the records
    /// before it were handed over, with the same error as `read`.
    @Test func forEachRecordHandsOverWhatReadReturnsAndStopsAtABadLine() throws {
        let path = TemporaryFile.path("streamed.ndjson")
        defer { TemporaryFile.remove(path) }
        // Enough records to span several chunks, the last one without its newline.
        let many = (0 ..< 6_000).map { index in
            TraceRecord(step: index, time: 1, direction: .webToNative, channel: "nativeBridge", engine: "shop",
                        store: "cart", type: "apply_mutation", message: String(repeating: "x", count: 300))
        }
        var text = TraceFile.encode(many)
        text.removeLast()
        try text.write(to: URL(fileURLWithPath: path))
        var seen: [TraceRecord] = []
        try TraceFile.forEachRecord(inFileAt: path) { seen.append($0) }
        #expect(seen == many)
        #expect(seen == (try TraceFile.read(from: path)))

        let good = TraceFile.line(for: Self.sample[0])
        try Data((good + "\n" + good + "\n{\"step\":\n" + good + "\n").utf8).write(to: URL(fileURLWithPath: path))
        seen = []
        #expect(throws: TraceFileError.self) { try TraceFile.forEachRecord(inFileAt: path) { seen.append($0) } }
        #expect(seen == [Self.sample[0], Self.sample[0]])
        do {
            try TraceFile.forEachRecord(inFileAt: path) { _ in }
            Issue.record("a bad third line was read")
        } catch {
            guard case .invalidLine(let line, _) = error else { Issue.record("\(error)"); return }
            #expect(line == 3)
        }
        #expect(throws: TraceFileError.unreadable(path: path + ".missing")) {
            try TraceFile.forEachRecord(inFileAt: path + ".missing") { _ in }
        }
    }

    @Test func everyRecordIsOneLineWithSortedKeysAndNilsOmitted() throws {
        let text = String(decoding: TraceFile.encode(Self.sample), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last == "", "three lines, each ending with a newline")
        #expect(lines[0] == #"{"channel":"nativeBridge","direction":"web_to_native","engine":"shop","message":"{\"v\":1,\"storeId\":\"cart\",\"messageId\":\"w1\",\"seq\":1,\"type\":\"sync_state\",\"payload\":{\"state\":{\"items\":[]}}}","seq":1,"size":102,"step":0,"store":"cart","time":0,"type":"sync_state"}"#)
        #expect(!lines[1].contains(#""store""#) && !lines[1].contains(#""seq""#))
        #expect(lines[1].contains(#""note":"line1\nline2\t\"quoted\" \\ \u0001 ünï 🚀""#))
    }

    @Test func manualWriterMatchesJSONEncoderWithSortedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for record in [Self.sample[0], Self.sample[2]] {
            let viaEncoder = String(decoding: try encoder.encode(record), as: UTF8.self)
            #expect(TraceFile.line(for: record) == viaEncoder)
        }
    }

    /// The example lines of docs/trace.md decode, and the writer reproduces them byte for byte.
    @Test func documentedExampleLinesRoundTrip() throws {
        let lines = [
            #"{"channel":"nativeBridge","direction":"web_to_native","engine":"shop","message":"{\"v\":1,\"storeId\":\"cart\",\"messageId\":\"w2\",\"seq\":7,\"type\":\"apply_mutation\",\"payload\":{\"mutations\":[{\"type\":\"direct\",\"ops\":[{\"op\":\"set\",\"path\":[\"items\",0,\"qty\"],\"value\":3}]}]}}","seq":7,"size":173,"step":12,"store":"cart","time":3201000,"type":"apply_mutation"}"#,
            #"{"channel":"bridge","direction":"native_to_web","engine":"shop","message":"{\"id\":\"c1\",\"ok\":true,\"data\":{\"apiBaseURL\":\"https://api.example.com\",\"userId\":\"u-42\",\"token\":\"[redacted]\",\"locale\":\"en-US\"}}","size":127,"step":13,"time":3260544,"type":"reply"}"#,
        ]
        let records = try TraceFile.decode(Data(lines.joined(separator: "\n").utf8))
        #expect(records.count == 2)
        #expect(records[0].store == "cart" && records[0].seq == 7 && records[0].size == records[0].message.utf8.count)
        #expect(records[1].direction == .nativeToWeb && records[1].store == nil)
        #expect(records.map { TraceFile.line(for: $0) } == lines)
    }

    @Test func blankLinesAndCRLFAreTolerated() throws {
        let lines = Self.sample.map { TraceFile.line(for: $0) }
        let text = "\n" + lines[0] + "\r\n\n" + lines[1] + "\n   \n" + lines[2]  // no final newline
        #expect(try TraceFile.decode(Data(text.utf8)) == Self.sample)
        #expect(try TraceFile.decode(Data()) == [])
    }

    @Test func unknownKeysAreIgnored() throws {
        let line = #"{"channel":"bridge","direction":"native_to_web","engine":"e","message":"{}","size":2,"step":0,"time":5,"type":"event","future":true}"#
        let records = try TraceFile.decode(Data(line.utf8))
        #expect(records == [TraceRecord(step: 0, time: 5, direction: .nativeToWeb, channel: "bridge",
                                        engine: "e", type: "event", message: "{}")])
    }

    // MARK: - Bad files

    private func error(decoding text: String, maximumLineBytes: Int = TraceFile.defaultMaximumLineBytes) -> TraceFileError? {
        do {
            _ = try TraceFile.decode(Data(text.utf8), maximumLineBytes: maximumLineBytes)
            return nil
        } catch {
            return error
        }
    }

    private var goodLine: String { TraceFile.line(for: Self.sample[0]) }

    @Test func invalidJSONLineIsNamedByNumber() {
        let text = [goodLine, goodLine, #"{"channel":"bridge","#].joined(separator: "\n")
        #expect(error(decoding: text) == .invalidLine(line: 3, reason: "is not valid JSON (column 21: expected a key in double quotes)"))
    }

    @Test func lineNumbersCountBlankLines() {
        let text = goodLine + "\n\n" + "garbage\n"
        #expect(error(decoding: text) == .invalidLine(line: 3, reason: "is not valid JSON (column 1: unexpected character 'g', expected a value)"))
    }

    @Test func missingFieldIsNamed() {
        let line = goodLine.replacingOccurrences(of: #""direction":"web_to_native","#, with: "")
        #expect(error(decoding: goodLine + "\n" + line) == .invalidLine(line: 2, reason: #"lacks field "direction""#))
    }

    @Test func wrongTypeIsNamed() {
        let line = goodLine.replacingOccurrences(of: #""step":0"#, with: #""step":"zero""#)
        #expect(error(decoding: line) == .invalidLine(line: 1, reason: #"field "step" has the wrong type (expected integer, found "zero")"#))
        // Valid JSON with a fraction where an integer belongs is named as such, not "not valid JSON".
        let fraction = goodLine.replacingOccurrences(of: #""step":0"#, with: #""step":1.5"#)
        #expect(error(decoding: fraction) == .invalidLine(line: 1, reason: #"field "step" has the wrong type (expected integer, found 1.5)"#))
        let engine = goodLine.replacingOccurrences(of: #""engine":"#, with: #""engine":7,"engine2":"#)
        #expect(error(decoding: engine) == .invalidLine(line: 1, reason: #"field "engine" has the wrong type (expected string, found 7)"#))
        let nullTime = goodLine.replacingOccurrences(of: #""time":0"#, with: #""time":null"#)
        #expect(error(decoding: nullTime) == .invalidLine(line: 1, reason: #"field "time" is null (expected integer)"#))
    }

    @Test func unknownDirectionIsNamed() throws {
        let line = goodLine.replacingOccurrences(of: "web_to_native", with: "sideways")
        guard case .invalidLine(let number, let reason) = try #require(error(decoding: line)) else {
            Issue.record("expected invalidLine")
            return
        }
        #expect(number == 1)
        #expect(reason.hasPrefix(#"field "direction" is invalid"#))
    }

    @Test func negativeStepIsRejected() throws {
        let line = goodLine.replacingOccurrences(of: #""step":0"#, with: #""step":-1"#)
        guard case .invalidLine(1, let reason) = try #require(error(decoding: line)) else {
            Issue.record("expected invalidLine on line 1")
            return
        }
        #expect(reason.contains("step") && reason.contains("negative"))
    }

    /// A line over the cap is refused with its number as soon as the cap is passed: the reader
    /// keeps one line, so a 300 MB line cannot cost 1.5 GB.
    @Test func aLineOverTheCapIsRefusedWithItsNumber() throws {
        let huge = #"{"channel":"bridge","direction":"native_to_web","engine":"e","message":""# + String(repeating: "x", count: 3 << 20) + #"","size":1,"step":1,"time":1,"type":"t"}"#
        let text = goodLine + "\n" + huge + "\n" + goodLine + "\n"
        #expect(error(decoding: text, maximumLineBytes: 1 << 20) == .lineTooLong(line: 2, limit: 1 << 20))
        #expect(TraceFileError.lineTooLong(line: 2, limit: 1 << 20).description
            == "trace line 2 is longer than 1048576 bytes, the longest line read (raise it with --max-line-bytes)")
        // From a file, read in chunks; under a larger cap the same file reads.
        let path = TemporaryFile.path("huge-line.ndjson")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TraceFileError.lineTooLong(line: 2, limit: 1 << 20)) { try TraceFile.read(from: path, maximumLineBytes: 1 << 20) }
        #expect(throws: TraceFileError.lineTooLong(line: 2, limit: 1 << 20)) { try TraceFile.readRecovering(from: path, maximumLineBytes: 1 << 20) }
        #expect(try TraceFile.read(from: path, maximumLineBytes: 4 << 20).count == 3)
        // A last line without its newline, over the cap, is refused too (not taken for a cut line).
        #expect(throws: TraceFileError.lineTooLong(line: 2, limit: 1 << 20)) { try TraceFile.decodeRecovering(Data((goodLine + "\n" + huge).utf8), maximumLineBytes: 1 << 20) }
    }

    @Test func nonObjectLineIsRejected() {
        #expect(error(decoding: "[1,2]") == .invalidLine(line: 1, reason: "is not a JSON object"))
    }

    @Test func missingFileIsUnreadableWithItsPath() {
        let path = TemporaryFile.path("does-not-exist.ndjson")
        #expect(throws: TraceFileError.unreadable(path: path)) { try TraceFile.read(from: path) }
    }

    @Test func unwritablePathIsNamed() {
        let path = "/nonexistent-dir-\(UUID().uuidString)/t.ndjson"
        do {
            try TraceFile.write(Self.sample, to: path)
            Issue.record("writing into a missing directory succeeded")
        } catch {
            guard case .unwritable(let failedPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedPath == path)
        }
    }

    @Test func errorDescriptionsReadWell() {
        #expect(TraceFileError.invalidLine(line: 12, reason: "is not valid JSON").description == "trace line 12 is not valid JSON")
        #expect(TraceFileError.invalidLine(line: 3, reason: #"lacks field "direction""#).description == #"trace line 3 lacks field "direction""#)
    }
}
