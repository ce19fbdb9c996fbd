import CapabilityBridge
import JSEngine
import Testing

@Suite("Many concurrent calls", .tags(.engine))
struct ConcurrencyTests {
    @Test func twoHundredParallelCallsWithRandomDelaysResolveToTheirCallers() async throws {
        let h = try await BridgeHarness.make()
        h.host.register("echo", payload: JSONValue.self, result: JSONValue.self) { payload, context in
            let delay = payload["delay"]?.intValue ?? 0
            if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            return ["n": payload["n"] ?? .null, "id": .string(context.requestID ?? "")]
        }
        let result = try await h.engine.evaluateAndAwait("""
        (async () => {
          const calls = [];
          for (let n = 0; n < 200; n++) {
            const delay = Math.floor(Math.random() * 30);
            calls.push(invokeNative('echo', { n, delay, pad: 'x'.repeat(n) }).then(d => d.n === n ? null : 'call ' + n + ' got ' + d.n));
          }
          const wrong = (await Promise.all(calls)).filter(x => x !== null);
          return { wrong, pending: StateHubBridge.pendingCount() };
        })()
        """, timeout: .seconds(20))
        #expect(result == ["wrong": [], "pending": 0])
        let replies = h.bridgeRecords.filter { $0.type == "reply" }
        #expect(replies.count == 200)
        #expect(Set(replies.map(\.message)).count == 200)
    }

    @Test func twoPagesWithTheirOwnGrantsAndShellsShareOneHostAndTrace() async throws {
        let a = try await BridgeHarness.make(name: "page-a", grants: .all)
        let b = try await BridgeHarness.make(name: "page-b", grants: .actions(["getInitialData"]), host: a.host)
        async let ra = a.invoke("gotoNative", ["page": "a"])
        async let rb = b.invoke("gotoNative", ["page": "b"])
        let (replyA, replyB) = try await (ra, rb)
        #expect(replyA["ok"] == true)
        #expect(replyB["code"] == "refused")
        #expect(a.shell.state.navigationStack.last == .native(page: "a", params: [:]))
        #expect(b.shell.state.navigationStack.count == 1)
        #expect(a.host.attachedPageIDs == ["page-a", "page-b"])
        #expect(Set(a.bridgeRecords.map(\.engine)) == ["page-a", "page-b"])
        try a.host.sendEvent("ping", data: 1, toPage: "page-b")
        #expect(throws: BridgeHostError.unknownPage("nope")) { try a.host.sendEvent("ping", toPage: "nope") }
        await b.engine.close()
        #expect(a.host.attachedPageIDs == ["page-a"], "a page that closes detaches itself")
    }
}
