import CapabilityBridge
import JSEngine
import Testing
import Trace

@Suite("Bridge traffic in the trace", .tags(.engine))
struct BridgeTraceTests {
    @Test func requestsRepliesEventsAndRefusalsAreRecordedAndTokensRedacted() async throws {
        let h = try await BridgeHarness.make(grants: .framework())
        _ = try await h.invoke("getInitialData")
        _ = try await h.invoke("teleport")
        try await h.engine.evaluate("location.href = 'jsbridge://didFinishLoading?callback=cb'; 0")
        try h.host.sendEvent("cartNavTapped", data: ["from": "header"], toPage: h.pageID)
        await h.waitForRecord("the legacy reply") { $0.type == "legacy_reply" }

        let records = h.bridgeRecords
        let invoke = try #require(records.first { $0.type == "invoke" })
        #expect(invoke.direction == .webToNative && invoke.engine == h.pageID)
        #expect(invoke.message == #"{"v":1,"id":"c1","action":"getInitialData","payload":{}}"#)

        let reply = try #require(records.first { $0.type == "reply" && $0.note == "getInitialData" })
        #expect(reply.direction == .nativeToWeb)
        #expect(reply.message.contains(#""token":"[redacted]""#))
        #expect(!reply.message.contains("secret-token-123"))
        #expect(reply.size > reply.message.utf8.count, "size is of the message as it crossed, before redaction")
        #expect(try await h.engine.evaluateAndAwait("invokeNative('getInitialData').then(d => d.token)") == "secret-token-123",
                "redaction touches the trace only")

        let refused = try #require(records.first { $0.note == "teleport: refused" })
        #expect(refused.type == "reply" && refused.message.contains(#""code":"refused""#))
        #expect(records.contains { $0.type == "invoke" && $0.message.contains("teleport") })

        #expect(records.contains { $0.type == "legacy_invoke" && $0.message == #"{"api":"didFinishLoading","params":{},"callback":"cb"}"# })
        #expect(records.contains { $0.type == "legacy_reply" && $0.message == #"{"callback":"cb","result":{"data":null,"err":0,"msg":"ok"}}"# })
        #expect(records.contains { $0.type == "event" && $0.message == #"{"event":"cartNavTapped","data":{"from":"header"}}"# })
        // One timeline: steps are in order across types.
        #expect(records.map(\.step) == records.map(\.step).sorted())
    }
}
