import StateHubJSON
import Testing
@testable import Trace

/// The timeline keeps the hub's depth cap: a trace whose records each set a value 400 levels
/// below the previous one (5.9 MB, under the console's 8 MiB cap) nested the replayed state
/// 34,000 levels deep and ended `statehub serve` and `statehub trace show` with SIGSEGV.
@Suite(.tags(.unit)) struct TimelineDepthTests {
    static let records = 86
    static let levels = 400

    /// `levels` objects nested under key `k`, as JSON text.
    static func nestedText(_ levels: Int) -> String {
        String(repeating: #"{"k":"#, count: levels - 1) + "{}" + String(repeating: "}", count: levels - 1)
    }

    static func deepeningTrace() -> [TraceRecord] {
        var records = [TimelineModelTests.record(0, "sync_state", #"{"type":"sync_state","payload":{"reason":"created","state":{}}}"#)]
        let value = nestedText(levels)
        for index in 1...Self.records {
            let path = Array(repeating: #""k""#, count: levels * (index - 1) + 1).joined(separator: ",")
            records.append(TimelineModelTests.record(index, "apply_mutation",
                #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":[\#(path)],"value":\#(value)}]}]}}"#))
        }
        return records
    }

    @Test func writesPastTheDepthCapAreRefusedAsTheHubRefusesThem() throws {
        let trace = Self.deepeningTrace()
        #expect(trace.reduce(0) { $0 + $1.message.utf8.count } > 5_000_000)
        let model = try TimelineModel(records: trace)
        #expect(model.steps.count == Self.records + 1)
        #expect(model.steps[1].refused == nil, "400 levels are within the cap")
        for step in model.steps.dropFirst(2) {
            #expect(step.refused?.contains("deeper than \(JSONValue.maximumStateDepth) levels") == true, "step \(step.step)")
        }
    }
}
