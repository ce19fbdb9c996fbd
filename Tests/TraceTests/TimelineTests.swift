import Testing
import Trace

@Suite("TraceTimeline", .tags(.unit))
struct TimelineTests {
    let records = [
        TraceRecord(step: 11, time: 1_000_000, direction: .webToNative, channel: "nativeBridge", engine: "shop",
                    store: "cart", type: "sync_state", seq: 6, size: 90, message: "{}"),
        TraceRecord(step: 12, time: 4_201_000, direction: .webToNative, channel: "nativeBridge", engine: "shop",
                    store: "cart", type: "apply_mutation", seq: 7, size: 184, message: "{}"),
        TraceRecord(step: 13, time: 4_300_400, direction: .nativeToWeb, channel: "bridge", engine: "shop",
                    type: "reply", message: #"{"id":"c9","ok":false,"error":{"code":"refused","message":"no"}}"#,
                    note: "action not granted"),
    ]

    @Test func linesAreAlignedAndReadable() {
        let lines = TraceTimeline.lines(for: records)
        #expect(lines == [
            "#11  +0.000 ms  web→native  cart    sync_state seq 6         (90 B)",
            "#12  +3.201 ms  web→native  cart    apply_mutation seq 7     (184 B)",
            "#13  +3.300 ms  native→web  bridge  reply c9 failed refused  (64 B)  ! action not granted",
        ])
    }

    @Test func describeHookIsAppendedUnderTheLine() {
        let lines = TraceTimeline.lines(for: Array(records.prefix(2))) { record in
            record.step == 12 ? "items[1] = {\"sku\":\"B7\"}\ncoupon: null → \"WELCOME\"" : nil
        }
        #expect(lines.count == 4)
        #expect(lines[2] == "      items[1] = {\"sku\":\"B7\"}")
        #expect(lines[3] == "      coupon: null → \"WELCOME\"")
        #expect(lines[1].hasPrefix("#12  +3.201 ms  web→native  cart  apply_mutation seq 7"))
    }

    @Test func engineColumnAppearsWithSeveralEngines() {
        var two = records
        two[1].engine = "checkout"
        let lines = TraceTimeline.lines(for: two)
        #expect(lines[0].hasPrefix("#11  +0.000 ms  web→native  shop      cart    sync_state"))
        #expect(lines[1].hasPrefix("#12  +3.201 ms  web→native  checkout  cart    apply_mutation"))
    }

    @Test func offsetsRoundToTheMicrosecondAndAcceptAnOrigin() {
        #expect(TraceTimeline.formatOffset(3_201_499, origin: 0) == "+3.201 ms")
        #expect(TraceTimeline.formatOffset(3_201_500, origin: 0) == "+3.202 ms")
        #expect(TraceTimeline.formatOffset(65_000_001_000, origin: 0) == "+65000.001 ms")
        #expect(TraceTimeline.formatOffset(0, origin: 2_000) == "-0.002 ms")
        #expect(TraceTimeline.lines(for: records, origin: 0)[0].hasPrefix("#11  +1.000 ms"))
    }

    @Test func renderEndsWithNewlineAndEmptyIsEmpty() {
        #expect(TraceTimeline.render([]) == "")
        let text = TraceTimeline.render(Array(records.prefix(1)))
        #expect(text == "#11  +0.000 ms  web→native  cart  sync_state seq 6  (90 B)\n")
    }

    @Test func bridgeSummaryNamesActionEventAndId() {
        let invoke = TraceRecord(step: 0, time: 0, direction: .webToNative, channel: "bridge", engine: "e",
                                 type: "invoke", message: #"{"v":1,"id":"c17","action":"gotoWebview","payload":{}}"#)
        let event = TraceRecord(step: 1, time: 0, direction: .nativeToWeb, channel: "bridge", engine: "e",
                                type: "event", message: #"{"event":"cartNavTapped","data":{}}"#)
        let garbage = TraceRecord(step: 2, time: 0, direction: .webToNative, channel: "bridge", engine: "e",
                                  type: "invoke", message: "{oops")
        let lines = TraceTimeline.lines(for: [invoke, event, garbage])
        #expect(lines[0].contains("invoke gotoWebview c17"))
        #expect(lines[1].contains("event cartNavTapped"))
        #expect(lines[2].contains("invoke ") && lines[2].hasSuffix("(5 B)"))
    }
}
